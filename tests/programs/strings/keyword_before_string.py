# call: main()
# expect: ['bca', 'ab', 'xyz', 'ab']
# A keyword written against a string literal (`return''.join(...)`, `if'a'in s`): a name, then
# a string, as CPython's tokenizer reads them (only r u f b rb br fr rf prefix a string).


def rotate(s):
    return''.join([s[1:], s[:1]])


def pick(s):
    if'a'in s:
        return s
    return'xyz'


def main():
    return [rotate('abc'), pick('ab'), pick('xyz'), 'ab'if True else'cd']
