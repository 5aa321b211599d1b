# limits: fuel=1000
# expect trap: FuelExhausted
def main() -> int:
    """Never ends: the step budget stops it."""
    i = 0
    while True:
        i += 1
    return i
