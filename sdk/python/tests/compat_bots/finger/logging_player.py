# A finger custom_player.py that logs through the contest's generic_player.logger.
import logging

from generic_player import GenericPlayer, logger
from moves import Move

logging.basicConfig(level=logging.INFO, format="%(name)s %(message)s")


class CustomPlayer(GenericPlayer):
    def move(self):
        l, r = self.get_my_left(), self.get_my_right()
        ol, orr = self.get_opponent_left(), self.get_opponent_right()
        logger.info("round %d: me %d,%d opp %d,%d", self.get_current_round(), l, r, ol, orr)
        for move, mine, theirs in ((Move.LEFT_TO_LEFT, l, ol), (Move.LEFT_TO_RIGHT, l, orr),
                                   (Move.RIGHT_TO_LEFT, r, ol), (Move.RIGHT_TO_RIGHT, r, orr)):
            if mine and theirs:
                return move
        total = l + r
        for a in range(6):
            if 0 <= total - a <= 5 and (a, total - a) not in ((l, r), (r, l)):
                return Move.SWITCH(a, total - a)


custom_player = CustomPlayer("logger")
