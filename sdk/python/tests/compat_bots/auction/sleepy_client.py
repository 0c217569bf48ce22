# An auction client script that thinks slowly, as some of the contest's clients did (they
# slept 10-15 s in a move under the original server's 120 s chess clock): before each bid it
# sleeps SLEEPY_EACH seconds, SLEEPY_SECOND before its second (the environment's numbers; 0
# when unset), then bids 0. (Its first sleep starts as its seat opens, before the first
# request: only the later ones are all the move's.)
import os
import sys
import time
from client import Client

if __name__ == '__main__':
    name = sys.argv[3] if len(sys.argv) >= 4 else "sleepy"
    client = Client(name, (sys.argv[1], int(sys.argv[2])))
    second = float(os.environ.get("SLEEPY_SECOND", "0"))
    each = float(os.environ.get("SLEEPY_EACH", "0"))
    current_round = 0
    while True:
        time.sleep(second if current_round == 1 else each)
        client.make_bid(client.auction_items[current_round], 0)
        print(f"{name}: round {current_round} bid 0")
        state = client.receive_round()
        if state['finished']:
            exit(0)
        current_round += 1
