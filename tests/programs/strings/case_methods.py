# expect: ('kiln 42 py!', 'KILN 42 PY!', 'kILN 42 Py!', '', 'A1_z', 'A1_Z')
def main() -> tuple[str, str, str, str, str, str]:
    s = "Kiln 42 pY!"
    e = ""
    return s.lower(), s.upper(), s.swapcase(), e.upper(), "A1_z".swapcase().swapcase(), "a1_z".upper()
