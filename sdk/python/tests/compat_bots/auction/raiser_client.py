import sys
from client import Client

client = Client(sys.argv[3] if len(sys.argv) > 3 else "raiser", (sys.argv[1], int(sys.argv[2])))
rnd = 0
while True:
    if rnd == 3:
        raise KeyError("auction script failure in round 3")
    client.make_bid(client.auction_items[rnd], 1)
    state = client.receive_round()
    if state['finished']:
        exit(0)
    rnd += 1
