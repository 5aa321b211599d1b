# expect trap: IndexError
def main() -> bool:
    """all() stops at the first false item: the IndexError of item 3 is never met, but any()
    over the same items reaches it."""
    xs = [1, 0, 5]
    ok = all(xs[i] > 0 for i in range(4))
    if ok:
        return True
    return any(xs[i] > 5 for i in range(4))
