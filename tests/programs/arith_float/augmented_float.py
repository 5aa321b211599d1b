# expect: [2.5, 3.5, 10.5, 10.0, 5.0, 2.0, 4.0, -4.0]
def main() -> list[float]:
    trail: list[float] = []
    y = 10.0
    y /= 4
    trail.append(y)
    y += 1
    trail.append(y)
    y *= 3
    trail.append(y)
    y -= 0.5
    trail.append(y)
    y //= 2
    trail.append(y)
    y %= 3
    trail.append(y)
    y **= 2
    trail.append(y)
    y = -y
    trail.append(y)
    return trail
