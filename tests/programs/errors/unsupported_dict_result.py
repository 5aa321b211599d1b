# expect error: unsupported
def main():
    d = {"a": 1}
    return d
