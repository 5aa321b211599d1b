# call: main()
# expect: (['x', 'y'], ['x', 'y', 'w'], [1, 2])
def main():
    """list(d.keys()) is a new list: later changes of the dict do not show in it."""
    d = {"x": 1, "y": 2}
    keys = list(d.keys())
    values = list(d.values())
    d["w"] = 3
    return keys, sorted(d.keys(), key=lambda k: d[k]), values
