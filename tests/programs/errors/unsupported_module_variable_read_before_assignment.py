# expect error: unsupported
# At module level CPython raises NameError (or reads a builtin of that name) for a read before
# the first assignment; kiln's <module> would raise UnboundLocalError: rejected.
def main() -> int:
    return 1


print(items)
items = [1, 2]
