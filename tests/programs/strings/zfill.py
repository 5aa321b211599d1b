# expect: ['42', '42', '42', '42', '042', '00042', '-42', '-42', '-42', '-42', '-42', '-0042', '+7', '+7', '+7', '+7', '+07', '+0007', '-', '-', '-', '-0', '-00', '-0000', '+', '+', '+', '+0', '+00', '+0000', '', '', '0', '00', '000', '00000', 'abc', 'abc', 'abc', 'abc', 'abc', '00abc', '1-2', '1-2', '1-2', '1-2', '1-2', '001-2', ' -5', ' -5', ' -5', ' -5', ' -5', '00 -5', 'ünï', 'ünï', 'ünï', 'ünï', 'ünï', '00ünï', '-é', '-é', '-é', '-é', '-0é', '-000é', '123', '007|-007']
def main() -> list[str]:
    """str.zfill: zeros on the left up to the width, after a leading sign; a width at or below
    the length (or negative) leaves the text as it was; any str, non-ASCII too."""
    out = []
    for s in ["42", "-42", "+7", "-", "+", "", "abc", "1-2", " -5", "ünï", "-é"]:
        for width in [-3, 0, 1, 2, 3, 5]:
            out.append(s.zfill(width))
    out.append("123".zfill(True))
    n = 7
    out.append(str(n).zfill(n - 4) + "|" + str(-n).zfill(n - 3))
    return out
