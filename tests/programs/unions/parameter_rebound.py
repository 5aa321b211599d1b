# expect: ([0, 0, 3, 3], 2.5, '2,5', [1, 4])
# a parameter re-bound to another kind: the body's own variable holds a union (the caller's
# argument stays as it was); after `x = <a T>` the variable is that T until it is assigned again
def compare(game, guess):
    scores = [int(i) for i in game]
    guesses = [int(i) for i in guess]
    results = []
    for index, guess in enumerate(guesses):
        score = scores[index]
        results.append(abs(score - guess))
    return results


def as_number(a):
    if isinstance(a, str):
        a = float(a.replace(",", "."))
    return a


def squares(n):
    n = list(range(1, n + 1))
    return [k * k for k in n]


def main():
    text = "2,5"
    return compare([1, 2, 3, 4], [1, 2, 6, 1]), as_number(text), text, squares(2)
