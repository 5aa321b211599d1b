# expect: (1, 2, 0, 0)
# hex_key([]) after calls with strs: a specialisation for a list whose item type its body tells
# (num[i] in a tuple of strs: list[str]); the list is empty, so no item is ever read.
def hex_key(num):
    primes = ('2', '3', '5', '7', 'B', 'D')
    total = 0
    for i in range(0, len(num)):
        if num[i] in primes:
            total += 1
    return total


def main():
    return (hex_key("AB"), hex_key("1077E"), hex_key([]), hex_key(""))
