# expect error: unsupported
async def main() -> int:
    """async functions are outside the subset."""
    n = 1
    return n
