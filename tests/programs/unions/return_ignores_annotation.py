# expect: 'kiln'
def main() -> int:
    """The result is annotated int but a str is returned: CPython ignores the annotation."""
    name = "kiln"
    return name
