# call: main()
# expect: (False, True, False)
# A str compared with a list whose items nothing tells yet: never equal, as in CPython.


def words(s: str):
    if not s:
        return []
    return s.split()


def main():
    return (words("") == "", words("a b") != "a b", [] == ())
