# call: main()
# expect: 3.0
def main():
    best = None
    for x in [2.5, -1.0, 3.0]:
        if best is None:
            best = x
            continue
        if x > best:
            best = x
    return best
