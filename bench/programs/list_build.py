def squares(n: int) -> int:
    xs: list[int] = []
    for i in range(n):
        xs.append(i * i % 1000)
    evens = [x for x in xs if x % 2 == 0]
    return sum(evens) + len(xs)
