# expect trap: RuntimeError
def main() -> int:
    steps = 0
    while True:
        steps += 1
        if steps == 10:
            raise RuntimeError("gave up after " + str(steps) + " steps")
