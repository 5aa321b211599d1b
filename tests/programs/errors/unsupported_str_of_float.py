# expect error: unsupported
def main() -> str:
    """str(float) needs the shortest-repr algorithm: not supported yet."""
    x = 0.1
    return str(x)
