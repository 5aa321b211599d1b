# expect: (1, 15.0, 2.5)
# a parameter re-bound by a method chain on its str alternative; the int variant's copies of the
# chain all raise AttributeError (never reached: isinstance is false), lowered as any split
def f(a):
    if isinstance(a, str):
        a = float(a.replace(",", ".").replace(".", ""))
    return a

def main():
    return f(1), f("1,5"), f(2.5)
