# expect: (11, '本', 955, 'λ', True, '語本日wörld', 2)
def main() -> tuple[int, str, int, str, bool, str, int]:
    s = "héllo wörld"
    j = "日本語"
    return len(s), j[1], ord("λ"), chr(955), "ü" > "z", j[::-1] + s[-5:], len("🙂x")
