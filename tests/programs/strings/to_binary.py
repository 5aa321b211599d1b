# expect: ['0', '1', '101', '11111111', '10000000000']
def to_binary(n: int) -> str:
    if n == 0:
        return "0"
    digits = ""
    while n > 0:
        digits = str(n % 2) + digits
        n //= 2
    return digits


def main() -> list[str]:
    return [to_binary(n) for n in [0, 1, 5, 255, 1024]]
