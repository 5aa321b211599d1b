# expect trap: Overflow
def main() -> int:
    """The running total passes 2**63 - 1 on the second addition."""
    big = 4611686018427387904
    return sum([big, big, big])
