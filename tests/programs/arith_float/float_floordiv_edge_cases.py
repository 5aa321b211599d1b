# expect: [9.0, -10.0, -0.0, -0.0, 2.0, -2.0]
def main() -> list[float]:
    tenth = 0.1
    zero = 0.0
    return [1.0 // tenth, -1.0 // tenth, -zero // 1.0, zero // -1.0, 0.5 // 0.25, -0.5 // 0.25]
