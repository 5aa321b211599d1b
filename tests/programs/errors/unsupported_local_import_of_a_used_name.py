# expect error: unsupported
# A function's own `from os import getpid` binds a local: the call is os.getpid's, no kiln
# function (it was once compiled as a call of a name bound nowhere: NameError, not CPython's 1).
def main() -> int:
    from os import getpid
    return 1 if getpid() else 0
