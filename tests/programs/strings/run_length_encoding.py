# call: rle("aaabccddddde")
# expect: 'a3b1c2d5e1'
def rle(s):
    if len(s) == 0:
        return ""
    out = ""
    current = s[0]
    count = 0
    for c in s:
        if c == current:
            count += 1
        else:
            out += current + str(count)
            current = c
            count = 1
    return out + current + str(count)
