from bidbot.BidBot import BidBot
from bidbot.BotClient import connect


class RaiserBot(BidBot):
    def get_bid(self, game_state):
        if len(game_state.my_bids) == 2:
            raise RuntimeError("bidbot failure in round 3")
        return 1


def main():
    connect("localhost", 8080, "raiser", RaiserBot("raiser"))


if __name__ == "__main__":
    main()
