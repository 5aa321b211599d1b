# call: lcp(["interstellar", "internet", "interval", "intern"])
# expect: 'inter'
def lcp(words):
    prefix = words[0]
    for w in words:
        while w[:len(prefix)] != prefix:
            prefix = prefix[:-1]
    return prefix
