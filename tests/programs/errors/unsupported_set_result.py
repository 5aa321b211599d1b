# expect error: unsupported
def main():
    return {1, 2}
