# call: main()
# expect: 'one three five'
# list.sort(key=...) whose key reads another variable: a dict of ints cannot hold the list
# (which CPython's sort empties while the keys are computed), so it sorts in place as sorted().


def main() -> str:
    num_dict = {"one": 1, "three": 3, "five": 5}
    num_list = "five one three".split()
    num_list.sort(key=lambda x: num_dict[x])
    return " ".join(num_list)
