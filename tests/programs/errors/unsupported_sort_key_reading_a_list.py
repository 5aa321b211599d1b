# expect error: unsupported
# A list.sort key that reads a list variable could read the list being sorted, which CPython's
# sort empties while the keys are computed: left to CPython.
def main() -> list[int]:
    xs = [3, 1, 2]
    order = xs
    xs.sort(key=lambda v: order.index(v))
    return xs
