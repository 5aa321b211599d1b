# call: main()
# expect: [True, True, False, True, False]
def largest_smallest_integers(lst):
    smallest = list(filter(lambda x: x < 0, lst))
    largest = list(filter(lambda x: x > 0, lst))
    return (max(smallest) if smallest else None, min(largest) if largest else None)


def main() -> list[bool]:
    return [
        largest_smallest_integers([2, 4, 1]) == (None, 1),
        largest_smallest_integers([]) == (None, None),
        largest_smallest_integers([-1, 3]) == (-1, None),
        (-1, 3) == largest_smallest_integers([-1, 3]),
        largest_smallest_integers([-1, 3]) != (-1, 3),
    ]
