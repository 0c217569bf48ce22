import sys
from client import Client

if __name__ == "__main__":
    client = Client("asker", (sys.argv[1], int(sys.argv[2])))
    rnd = 0
    while True:
        amount = 0 if rnd < 2 else int(input("bid? "))
        client.make_bid(client.auction_items[rnd], amount)
        state = client.receive_round()
        if state['finished']:
            exit(0)
        rnd += 1
