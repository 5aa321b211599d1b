# expect: ['start', 'x=1', 'x=2', 'end']
def log(lines: list[str], msg: str) -> None:
    lines.append(msg)


def main() -> list[str]:
    lines: list[str] = []
    log(lines, "start")
    for x in range(1, 3):
        log(lines, "x=" + str(x))
    log(lines, "end")
    return lines
