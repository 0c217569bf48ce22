def spread(money, places):
    return max(1, money // max(1, places))
