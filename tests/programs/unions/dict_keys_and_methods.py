# call: main()
# expect: (False, 2, ['A', 5, 'B'], True)
# A dict whose keys are strs and ints; str methods of a union value (on its str), isinstance.


def main():
    mixed = {"A": 1, 5: 2, "B": 3}
    upper = True
    for key in mixed:
        if not isinstance(key, str) or not key.isupper():
            upper = False
    ints = 0
    out = []
    for k in mixed:
        if isinstance(k, int):
            ints += 1
        out.append(k.upper() if isinstance(k, str) else k)
    return (upper, ints + 1, out, mixed[5] == 2 and mixed.get("B", 0) == 3)
