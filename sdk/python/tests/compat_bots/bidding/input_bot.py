from bidbot.BidBot import BidBot
from bidbot.BotClient import connect


class InputBot(BidBot):
    def get_bid(self, game_state):
        return int(input("bid? "))


def main():
    connect("localhost", 8080, "asker", InputBot("asker"))


if __name__ == "__main__":
    main()
