from generic_player import GenericPlayer
from moves import Move


class CustomPlayer(GenericPlayer):
    def move(self):
        if self.get_current_round() >= 2:
            answer = input("move? ")
            return Move(answer)
        return Move.LEFT_TO_LEFT


custom_player_blue = CustomPlayer("BLUEBUFFEDv3")
