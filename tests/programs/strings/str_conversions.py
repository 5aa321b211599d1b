# expect: ['123', '-45', '0', 'True', 'False', 'x', '4611686018427387904', '-9223372036854775808']
def main() -> list[str]:
    big = 4611686018427387904
    low = -9223372036854775807 - 1
    return [str(123), str(-45), str(-0), str(True), str(1 > 2), str("x"), str(big), str(low)]
