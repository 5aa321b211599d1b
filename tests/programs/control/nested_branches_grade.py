# call: grades([95, 83, 71, 65, 40, 100, 89])
# expect: ['A', 'B', 'C', 'D', 'F', 'A+', 'B+']
def grade(score):
    if score >= 90:
        if score == 100:
            return "A+"
        return "A"
    elif score >= 80:
        return "B+" if score >= 87 else "B"
    elif score >= 70:
        return "C"
    elif score >= 60:
        return "D"
    return "F"


def grades(scores):
    return [grade(s) for s in scores]
