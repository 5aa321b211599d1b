# expect trap: Overflow
def main() -> int:
    """-(-2**63) is 2**63, one past the largest int64."""
    low = -9223372036854775807 - 1
    return -low
