# expect error: unsupported
# Nothing imports math: CPython raises NameError when the call runs (no implicit imports).
def main() -> float:
    return math.sqrt(16.0)
