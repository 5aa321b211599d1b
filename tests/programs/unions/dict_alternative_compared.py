# expect trap: TypeError
# kiln: Unsupported
# a dict inside a union is, in the VM, the tuple of its keys and values lists: an instruction
# that would compare it (sorted, min, max, ==, in) is left to CPython (a dict and an int do not
# order: TypeError; dicts compare regardless of order)
def main():
    a = [2, {1: 2}]
    return len(sorted(a))
