# expect error: unsupported
# os.open replaces the builtin open for the whole module.
from os import open


def main() -> int:
    return 1
