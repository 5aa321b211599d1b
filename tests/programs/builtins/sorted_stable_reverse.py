# expect: ([-0.0, 0.0, -0.0, 0.0, 1.0], [1.0, -0.0, 0.0, -0.0, 0.0], [2.0, 1.0, 1.0, 0.0, -0.0])
def main() -> tuple[list[float], list[float], list[float]]:
    """-0.0 == 0.0, so their order shows that sorting is stable, reverse=True too."""
    xs = [-0.0, 1.0, 0.0, -0.0, 0.0]
    ys = [2.0, 0.0, 1.0, -0.0, 1.0]
    return sorted(xs), sorted(xs, reverse=True), sorted(ys, reverse=True)
