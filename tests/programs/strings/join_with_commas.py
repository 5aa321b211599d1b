# expect: '1, 4, 9, 16, 25'
def join_ints(xs: list[int], sep: str) -> str:
    out = ""
    for i, x in enumerate(xs):
        if i > 0:
            out += sep
        out += str(x)
    return out


def main() -> str:
    return join_ints([k * k for k in range(1, 6)], ", ")
