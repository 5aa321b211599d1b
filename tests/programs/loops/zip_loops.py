# call: main([1, 5, 3, 9], [2, 2, 4])
# expect: ([1, 3, 1], '0101', [(1, 'a', 2), (5, 'b', 2)], [1, 2, 5, 2, 3, 4], 3)
def main(game, guess):
    diffs = [abs(x - y) for x, y in zip(game, guess)]
    bits = "".join("0" if a == b else "1" for a, b in zip("abcd", "axcx"))
    triples = [t for t in zip(game, "ab", guess)]
    merged = []
    for e, o in zip(game, guess):
        merged.extend([e, o])
    count = 0
    for pair in zip(guess, guess):
        if pair[0] == pair[1]:
            count += 1
        else:
            break
    return diffs, bits, triples, merged, count
