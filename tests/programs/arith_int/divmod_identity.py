# expect: 246
def main() -> int:
    """a == (a // b) * b + a % b, and the remainder takes the divisor's sign."""
    ok = 0
    for a in range(-20, 21):
        for b in [-7, -3, -1, 1, 2, 5]:
            q = a // b
            r = a % b
            if q * b + r == a and (r == 0 or (r > 0) == (b > 0)):
                ok += 1
    return ok
