# expect: ([65, 97, 48, 32, 8364, 955, 128578], 'Aaz0 €', True)
def main() -> tuple[list[int], str, bool]:
    codes = [ord(c) for c in "Aa0 €λ🙂"]
    text = chr(65) + chr(97) + chr(ord("a") + 25) + chr(48) + chr(32) + chr(8364)
    round_trip = True
    for n in range(0, 2000, 7):
        if ord(chr(n)) != n:
            round_trip = False
    return codes, text, round_trip
