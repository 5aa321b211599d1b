# expect error: unsupported
LIMITS = [10, 20]


def main() -> int:
    """A module-level list is mutable state shared by every call: not in kiln Python."""
    return LIMITS[0]
