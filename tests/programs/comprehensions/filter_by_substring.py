# call: filter_by_substring(["abc", "bacd", "cde", "array"], "a")
# expect: ['abc', 'bacd', 'array']
from typing import List


def filter_by_substring(strings: List[str], substring: str) -> List[str]:
    """ Keep only the strings that contain the substring. """
    return [x for x in strings if substring in x]
