# expect trap: NameError
# helper is defined nowhere: CPython raises NameError when the call runs (before its
# argument is evaluated, so the division by zero never happens).
def main() -> int:
    total = 0
    for i in range(3):
        total += i
    if total > 2:
        return helper(total // 0) + 1
    return total
