# call: reverse("kiln compiles Python")
# expect: 'nohtyP selipmoc nlik'
def reverse(s):
    """Reverse with a negative-step slice."""
    return s[::-1]
