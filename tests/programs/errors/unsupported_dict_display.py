# expect error: unsupported
def main() -> int:
    """Dicts with float keys are outside the subset (1 == 1.0 hashing, NaN keys)."""
    d = {1.5: "a"}
    return len(d)
