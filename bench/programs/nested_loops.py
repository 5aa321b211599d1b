def grid(n: int) -> int:
    total = 0
    for i in range(n):
        for j in range(n):
            total += (i * j) % 7 - (i ^ j) % 3
    return total
