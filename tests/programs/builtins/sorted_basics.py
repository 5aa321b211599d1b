# expect: ([-2, 1, 3, 3, 8], [8, 3, 3, 1, -2], ['Zeta', 'alpha', 'beta'], [' ', 'i', 'k', 'l', 'n'], ['n', 'l', 'k', 'i', ' '])
def main() -> tuple[list[int], list[int], list[str], list[str], list[str]]:
    xs = [3, 1, 8, -2, 3]
    words = ["beta", "alpha", "Zeta"]
    return sorted(xs), sorted(xs, reverse=True), sorted(words), sorted("kiln "), sorted(" kiln", reverse=True)
