# expect error: unsupported
# divmod(a, b) is rewritten only where a and b are names or number literals (an expression
# would be evaluated twice)
def main() -> int:
    n = 7
    q, r = divmod(n * 2, 3)
    return q + r
