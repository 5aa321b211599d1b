# expect trap: NameError
# Nothing imports math: looking the name up raises NameError when the call runs, before its
# argument is evaluated (no implicit imports).
def main() -> float:
    x = 16.0
    return math.sqrt(x)
