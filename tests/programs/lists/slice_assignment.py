# call: main()
# expect: [[1, 9, 9, 4, 5], [0, 1, 2, 3, 4, 5], [1, 2, 3, 4, 7, 5], [1, 2, 3, 8], [1, 2, 3, 1, 2, 3], [7, 2, 3, 4, 5, 6, 1], [1, 6, 5, 4, 3, 2, 7], [2, 0, 4, 0]]
def main() -> list[list[int]]:
    """Slice assignment resizes the list in place (aliases see it); v is read before a changes."""
    out = []
    a = [1, 2, 3, 4, 5]
    alias = a
    a[1:3] = [9, 9]
    out.append(alias[:])
    a = [1, 2, 3, 4, 5]
    a[:0] = [0]
    out.append(a)
    a = [1, 2, 3, 4, 5]
    a[4:2] = [7]  # an empty slice: an insertion at 4
    out.append(a)
    a = [1, 2, 3, 4, 5]
    a[-2:] = [8]
    out.append(a)
    a = [1, 2, 3]
    a[len(a) :] = a
    out.append(a)
    a = [1, 2, 3, 4, 5, 6, 7]
    a[::6] = sorted(a[::6], reverse=True)  # an extended slice: item by item
    out.append(a)
    a = [1, 2, 3, 4, 5, 6, 7]
    a[-2:0:-1] = a[1:-1]
    out.append(a)
    a = [1, 2, 3, 4, 5]
    a[4::-2] = [0, 0, 0]
    a[:] = a[1:]
    out.append(a)
    return out
