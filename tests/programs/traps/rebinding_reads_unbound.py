# call: main(False)
# expect trap: UnboundLocalError
def main(c):
    """The old x is read (maybe unassigned) before the new x, a str, is bound."""
    if c:
        x = 1
    x = str(x)
    return x
