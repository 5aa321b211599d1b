# call: main([2, 4, 3, 0, 1, 5, 6])
# expect: ([6, 5, 4, 3, 2, 1, 0], [6, 5, 4, 3, 1, 0], [1, 2], [2, 1])
def main(array):
    """HumanEval 88: the direction decided at run time by an int or bool expression."""
    a = sorted(array, reverse=(array[0] + array[-1]) % 2 == 0)
    b = sorted(array[1:], reverse=(array[1] + array[-1]) % 2 == 0)
    c = sorted([2, 1], reverse=0)
    d = sorted([1, 2], reverse=len(array))
    return a, b, c, d
