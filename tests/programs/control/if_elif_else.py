# expect: ['negative', 'zero', 'small', 'medium', 'large', 'small']
def classify(n: int) -> str:
    if n < 0:
        return "negative"
    elif n == 0:
        return "zero"
    elif n < 10:
        return "small"
    elif n < 100:
        return "medium"
    else:
        return "large"


def main() -> list[str]:
    return [classify(n) for n in [-5, 0, 7, 42, 1000, 9]]
