"""Fibonacci numbers by the doubly recursive definition: a call-heavy workload.

`kiln run examples/fib.py --call "fib(25)"` gives 75025.
"""


def fib(n: int) -> int:
    """The n-th Fibonacci number: fib(0) = 0, fib(1) = 1."""
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)
