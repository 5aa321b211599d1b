# expect: ('a b', 'a b \n', ' \t a b', '', '', 'x', '\x1ex')
def main() -> tuple[str, str, str, str, str, str, str]:
    s = " \t a b \n"
    return s.strip(), s.lstrip(), s.rstrip(), "   ".strip(), "".lstrip(), "\x1cx\x1f".strip(), "\x1ex".rstrip()
