# expect: False
# An int is never a bool in kiln (an argument True is a bool: vm.values.marshal does not take it
# for an int), so isinstance(n, bool) of an int is decided: False.
def main() -> bool:
    n = 3
    return isinstance(n, bool)
