# expect: (4, 'xx', 5.0, True, True, 'x')
def main() -> tuple[int, str, float, bool, bool, str]:
    """Tuples of mixed types, indexed by constants (negative too)."""
    t = (3, "x", 2.5, True)
    return t[0] + 1, t[1] * 2, t[2] * 2, t[3], t[-1], t[-3]
