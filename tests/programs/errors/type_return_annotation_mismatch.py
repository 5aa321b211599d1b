# expect error: type
def main() -> int:
    """The result is annotated int but a str is returned."""
    name = "kiln"
    return name
