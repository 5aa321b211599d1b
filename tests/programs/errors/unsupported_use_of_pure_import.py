# expect error: unsupported
# `import re` alone is a no-op; re.sub is no kiln function.
import re


def main() -> str:
    return re.sub("a", "b", "banana")
