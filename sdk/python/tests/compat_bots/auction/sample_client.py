# An auction client script in the style of the contest's sample_client.py.
import sys
from client import Client
from auction_helper import best_artist


def calculate_bid(auction_items, current_round, wealth, owned, required_count):
    artist = auction_items[current_round]
    have = owned.get(artist, 0)
    if have + 1 >= required_count:
        return wealth
    return min(wealth, 5 + 10 * have)


if __name__ == '__main__':
    if len(sys.argv) < 3:
        print("usage: sample_client.py host port [name]")
        exit(1)
    host = sys.argv[1]
    port = int(sys.argv[2])
    name = sys.argv[3] if len(sys.argv) >= 4 else "sample"

    client = Client(name, (host, port))
    artists_num = client.artists_num
    required_count = client.required_count
    auction_items = client.auction_items
    player_count = client.player_count
    wealth_table = client.wealth_table
    assert artists_num >= 1 and required_count >= 1 and player_count >= 2, (artists_num, required_count, player_count)
    assert len(auction_items) > 0 and all(a.startswith("t") for a in auction_items)
    assert wealth_table[name] == 100 and len(wealth_table) == player_count, wealth_table

    current_round = 0
    wealth = 100
    owned = {}
    while True:
        bid_amt = calculate_bid(auction_items, current_round, wealth, owned, required_count)
        client.make_bid(auction_items[current_round], bid_amt)
        print(f"{name}: round {current_round} bid {bid_amt} on {auction_items[current_round]}")

        game_state = client.receive_round()
        game_state['remain_time'] = game_state['remain_time'][name]
        assert set(game_state) >= {'finished', 'bid_item', 'bid_winner', 'winning_bid', 'wealth_table'}
        assert game_state['bid_item'] == auction_items[current_round], (game_state, current_round)
        if game_state['bid_winner'] is None:
            assert game_state['winning_bid'] == -1, game_state
        else:
            assert game_state['bid_winner'] in game_state['wealth_table'], game_state
            assert game_state['winning_bid'] >= 0, game_state
        assert isinstance(game_state['remain_time'], (int, float)) and game_state['remain_time'] > 0, game_state
        if game_state['bid_winner'] == name:
            owned[game_state['bid_item']] = owned.get(game_state['bid_item'], 0) + 1
        wealth = game_state['wealth_table'][name]
        assert wealth == client.wealth_table[name]
        print(f"{name}: state {game_state} favourite {best_artist(auction_items, required_count, owned)}")

        if game_state['finished']:
            client.close()
            exit(0)
        current_round += 1
