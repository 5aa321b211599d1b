# expect error: unsupported
# `k` is bound twice at module level: a module variable, which no function may read.
k = 3
k = 4


def main() -> int:
    return k
