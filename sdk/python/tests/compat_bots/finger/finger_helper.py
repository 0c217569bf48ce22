def legal_switches(left, right):
    total = left + right
    return [(a, total - a) for a in range(6)
            if 0 <= total - a <= 5 and (a, total - a) not in ((left, right), (right, left))]
