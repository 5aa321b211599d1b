# call: evaluate([2.0, -3.0, 0.5, 1.0], 1.5)
# expect: 1.75
def evaluate(coeffs, x):
    """Horner's rule: coeffs from the highest power down."""
    acc = 0.0
    for c in coeffs:
        acc = acc * x + c
    return acc
