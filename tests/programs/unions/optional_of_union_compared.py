# call: main()
# expect: (True, True, True, False)
# A result that is None, an int or a float (an Optional holding a union) compared with literals.


def compare_one(a: int, b: float):
    if a == b:
        return None
    return a if a > b else b


def main():
    return (compare_one(1, 2.5) == 2.5, compare_one(3, 2.5) == 3, compare_one(2, 2.0) == None,
            compare_one(1, 2.5) == 1)
