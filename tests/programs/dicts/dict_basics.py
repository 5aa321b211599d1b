# call: main("o o| .| o| o| .| .| .| .| o o", [1, 2, 2, 3, 3, 3, 4], "This is a message is a")
# expect: ([5, 2, 1, 2, 2, 1, 1, 1, 1, 5, 5], True, 'tHKS KS C MGSSCGG KS C', ['This', 'is', 'a', 'message'], [('This', 1), ('is', 2), ('a', 2), ('message', 1)], 6, [0, 1, 9], (3, True, True, False, True, -1), 4)
def main(music, lst, message):
    note_map = {'o': 4, 'o|': 2, '.|': 1, 'o': 5}
    a = [note_map[x] for x in music.split(' ') if x]
    count = dict([(i, 0) for i in lst])
    for i in lst:
        count[i] += 1
    b = any(count[i] > 2 for i in lst)
    vowels = "aeiouAEIOU"
    rep = dict([(i, chr(ord(i) + 2)) for i in vowels])
    c = ''.join([rep[i] if i in vowels else i for i in message.swapcase()])
    d = {}
    for w in message.split():
        d[w] = d.get(w, 0) + 1
    keys = [k for k in d]
    items = [(k, v) for k, v in d.items()]
    vals = sum(v for v in d.values())
    sq = {k: k * k for k in range(4) if k != 2}
    e = len(sq), 3 in sq, 2 not in sq, bool({}), bool(sq), sq.get(9, -1)
    return a, b, c, keys, items, vals, [sq[k] for k in sq.keys()], e, len(count)
