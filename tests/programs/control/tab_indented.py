# call: main()
# expect: [6, 3, 1]
# Indented with tabs (as MBPP's sources are): CPython counts a tab to the next multiple of 8
# columns, and refuses (TabError) lines whose order tabs of another width would change.


def total(xs):
	t = 0
	for x in xs:
		if x > 0:
			t += x
	return t


def count_pos(xs):
	n = 0
	for x in xs:
	    if x > 0:
	        n += 1
	return n


def main():
	return [total([1, 2, 3]), count_pos([1, -2, 3, 4]), min(	1,	2)]
