# A bidbot client as its README shows, checking every GameState field it reads.
from bidbot.BidBot import BidBot
from bidbot.GameState import GameState
from bidbot.BotClient import connect
from bid_helper import spread


class CheckingBot(BidBot):
    def __init__(self, username):
        super().__init__(username)
        self.bids_made = 0
        self.games = 0
        self.rejected = []

    def get_bid(self, game_state: GameState):
        gs = game_state
        if gs.start_money <= 0:
            raise AssertionError(f"start_money not filled: {gs.start_money}")
        if gs.opponent_money <= 0 and not gs.my_bids:
            raise AssertionError(f"opponent_money not filled: {gs.opponent_money}")
        assert gs.player_identifier in (GameState.PLAYER_A, GameState.PLAYER_B), gs.player_identifier
        assert gs.is_player_a() == (gs.player_identifier == GameState.PLAYER_A)
        assert gs.get_opponent_name() == gs.get_opponent_username() == gs.self.opponent_username != ""
        assert len(gs.my_bids) == len(gs.opponents_bids) == gs.rounds_won + gs.rounds_lost, gs
        assert 0 <= gs.bottle_position <= 10
        # Money follows the bids: what we paid for the rounds we won.
        assert gs.my_money <= gs.start_money and gs.opponent_money <= gs.start_money
        if not gs.my_bids:
            self.games += 1
            assert gs.my_money == gs.opponent_money == gs.start_money
        self.bids_made += 1
        print(f"{self.username}: game {self.games} bid {self.bids_made} money {gs.my_money}/{gs.opponent_money} "
              f"bottle {gs.bottle_position} won {gs.rounds_won} lost {gs.rounds_lost}")
        if gs.my_money <= 1:
            return gs.my_money
        places = 10 - gs.bottle_position if gs.is_player_a() else gs.bottle_position
        return min(gs.my_money, spread(gs.my_money, places), gs.opponent_money + 1)

    def bid_rejected(self, game_state, bid):
        self.rejected.append(bid)


def main():
    import sys
    assert sys.argv[0].endswith("checking_bot.py") and len(sys.argv) == 1, sys.argv
    username = "checker"
    bot = CheckingBot(username)
    host = "your_sever.hostname.com"
    port = 8080

    connect(host, port, username, bot)
    print("connect returned after", bot.games, "games")


if __name__ == "__main__":
    main()
