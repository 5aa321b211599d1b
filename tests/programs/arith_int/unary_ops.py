# expect: [-7, 7, -8, 7, 6, 7, -7]
def main() -> list[int]:
    x = 7
    y = -x
    return [y, +x, ~x, - -x, ~y, -y, +y]
