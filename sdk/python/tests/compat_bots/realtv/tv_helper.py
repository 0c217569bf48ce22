def weakest_other(players, me_id):
    others = [p for p in players.values() if p.id != me_id]
    return min(others, key=lambda p: (p.strength, p.id)) if others else None
