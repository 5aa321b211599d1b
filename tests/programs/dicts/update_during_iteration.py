# expect: (10, 20, 3)
def main():
    """Changing the value of an existing key while iterating is fine (the size stays)."""
    d = {1: 1, 2: 2}
    total = 0
    for k in d:
        d[k] = k * 10
        total += k
    return d[1], d[2], total
