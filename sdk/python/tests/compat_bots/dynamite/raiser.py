def make_move(rounds):
    if len(rounds) == 4:
        raise ValueError("seed bot failure in round 5")
    return "R"
