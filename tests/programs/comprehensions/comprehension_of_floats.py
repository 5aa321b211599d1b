# expect: ([0.0, 0.5, 1.0, 1.5], 3.0, [0.25, 2.25])
def main() -> tuple[list[float], float, list[float]]:
    halves = [i / 2 for i in range(4)]
    squares_of_odd_halves = [h * h for h in halves if int(h * 2) % 2 == 1]
    return halves, sum(halves), squares_of_odd_halves
