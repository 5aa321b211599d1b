# HumanEval-sized functions for `kiln farm check`, `kiln bench farm` and `kiln bench gpu`:
# typical solutions, unannotated as models write them (their tests' arguments give the types).
# cluster/workload.py takes each function as one candidate source, with ten test inputs;
# expected values come from CPython.


def has_close_elements(numbers, threshold):
    for idx, elem in enumerate(numbers):
        for idx2, elem2 in enumerate(numbers):
            if idx != idx2:
                distance = abs(elem - elem2)
                if distance < threshold:
                    return True
    return False


def below_zero(operations):
    balance = 0
    for op in operations:
        balance += op
        if balance < 0:
            return True
    return False


def sum_product(numbers):
    sum_value = 0
    prod_value = 1
    for n in numbers:
        sum_value += n
        prod_value *= n
    return sum_value, prod_value


def is_palindrome(text):
    for i in range(len(text)):
        if text[i] != text[len(text) - 1 - i]:
            return False
    return True


def fizz_buzz(n):
    ns = []
    for i in range(n):
        if i % 11 == 0 or i % 13 == 0:
            ns.append(i)
    s = ""
    for x in ns:
        s += str(x)
    ans = 0
    for c in s:
        ans += c == "7"
    return ans


def largest_divisor(n):
    for i in reversed(range(n)):
        if n % i == 0:
            return i
    return 1


def incr_list(xs):
    return [e + 1 for e in xs]


def count_upper(s):
    count = 0
    for i in range(0, len(s), 2):
        if s[i] in "AEIOU":
            count += 1
    return count
