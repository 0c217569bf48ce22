class Rock:
    def make_move(self, gamestate):
        return "R"


class Paper:
    def make_move(self, gamestate):
        return "P"
