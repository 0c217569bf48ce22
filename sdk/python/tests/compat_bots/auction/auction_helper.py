def best_artist(auction_items, required_count, owned):
    """The artist we are closest to completing."""
    return max(sorted(set(auction_items)), key=lambda a: owned.get(a, 0))
