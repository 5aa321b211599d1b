# expect: 3
def main() -> int:
    count = 0
    for i in range(6):
        if i % 2 == 0:
            pass
        else:
            count += 1
    while False:
        pass
    return count
