# call: round_trip([0, 7, -45, 123456789, -9223372036854775807])
# expect: True
def round_trip(xs):
    """int(str(n)) == n for every n."""
    for n in xs:
        if int(str(n)) != n:
            return False
    return True
