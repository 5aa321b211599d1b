# expect: ([4, 9, 3], 2, ['adasd'])
# `Any` annotations are not checked by CPython: the parameter takes each call's argument types,
# a list of mixed items is a list of tagged values (a dict and a list among them)
from typing import Any, List


def only_ints(values: List[Any]) -> List[int]:
    out: List[int] = []
    for v in values:
        if isinstance(v, int) and not isinstance(v, bool):
            out.append(v)
    return out


def count_containers(values: list) -> int:
    n = 0
    for v in values:
        if isinstance(v, (dict, list)):
            n += 1
    return n


def strs(values: Any) -> Any:
    found: Any = [v for v in values if type(v) == str]
    return found


def main():
    mixed = [4, {}, [], 23.2, 9, 'adasd', True, 3]
    return only_ints(mixed), count_containers(mixed), strs(mixed)
