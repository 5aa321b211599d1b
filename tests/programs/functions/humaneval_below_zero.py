# call: below_zero([1, 2, -4, 5])
# expect: True
def below_zero(operations):
    """ The balance starts at zero; is it ever negative? """
    balance = 0
    for op in operations:
        balance += op
        if balance < 0:
            return True
    return False
