# expect: 'db101db / 5 mangoes / True: ok / '
# f"...{x}..." is "..." + str(x) + "...": format(x, "") is str(x) for str, int and bool.
def main() -> str:
    n = 5
    word = "ok"
    empty = f""
    return f"db{bin(n)[2:]}db / {n} mangoes / {n > 2}: {word} / {empty}"
