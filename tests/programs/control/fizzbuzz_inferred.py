# call: fizzbuzz(16)
# expect: '1 2 Fizz 4 Buzz Fizz 7 8 Fizz Buzz 11 Fizz 13 14 FizzBuzz 16'
def label(i):
    if i % 15 == 0:
        return "FizzBuzz"
    elif i % 3 == 0:
        return "Fizz"
    elif i % 5 == 0:
        return "Buzz"
    return str(i)


def fizzbuzz(n):
    out = label(1)
    for i in range(2, n + 1):
        out = out + " " + label(i)
    return out
