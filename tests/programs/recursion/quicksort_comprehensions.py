# call: quicksort(["pear", "fig", "apple", "kiwi", "banana", "fig"])
# expect: ['apple', 'banana', 'fig', 'fig', 'kiwi', 'pear']
def quicksort(xs):
    if len(xs) <= 1:
        return xs
    pivot = xs[0]
    smaller = quicksort([x for x in xs[1:] if x < pivot])
    larger = quicksort([x for x in xs[1:] if x >= pivot])
    return smaller + [pivot] + larger
