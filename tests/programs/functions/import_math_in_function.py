# call: main(360)
# expect: [2, 2, 2, 3, 3, 5]
def main(n):
    """HumanEval 25's factorize: `import math` inside the function."""
    import math

    fact = []
    i = 2
    while i <= int(math.sqrt(n) + 1):
        if n % i == 0:
            fact.append(i)
            n //= i
        else:
            i += 1
    if n > 1:
        fact.append(n)
    return fact
