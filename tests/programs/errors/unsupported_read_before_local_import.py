# expect error: unsupported
# The function's own import makes math a local of the whole body: CPython raises
# UnboundLocalError for the read before it, even though the module imports math too.
import math


def main() -> float:
    x = math.sqrt(16.0)
    import math
    return x
