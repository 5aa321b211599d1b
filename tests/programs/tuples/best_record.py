# expect: ('carol', 91, 3)
def main() -> tuple[str, int, int]:
    records = [("alice", 82), ("bob", 77), ("carol", 91), ("dave", 91)]
    best_name = ""
    best_score = -1
    above_80 = 0
    for name, score in records:
        if score > best_score:
            best_name, best_score = name, score
        if score > 80:
            above_80 += 1
    return best_name, best_score, above_80
