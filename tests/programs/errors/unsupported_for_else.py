# expect error: unsupported
def main() -> int:
    found = 0
    for x in [1, 2, 3]:
        if x == 5:
            found = x
            break
    else:
        found = -1
    return found
