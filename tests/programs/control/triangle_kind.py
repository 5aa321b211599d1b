# expect: ['equilateral', 'isosceles', 'scalene', 'invalid', 'isosceles', 'invalid']
def kind(a: int, b: int, c: int) -> str:
    if a + b <= c or a + c <= b or b + c <= a:
        return "invalid"
    if a == b:
        if b == c:
            return "equilateral"
        return "isosceles"
    if b == c or a == c:
        return "isosceles"
    return "scalene"


def main() -> list[str]:
    return [kind(3, 3, 3), kind(3, 3, 5), kind(3, 4, 5), kind(1, 2, 3), kind(5, 3, 5), kind(0, 0, 0)]
