# expect error: unsupported: keyword argument rel_tol


def isclose(a: float, b: float) -> bool:
    return a == b


def main() -> bool:
    return isclose(1.0, 2.0, rel_tol=1.0)
