# A helper module next to the bot files (must import as in the original runner's folder).
MOVES = "RPSW"


def count_dynamite(rounds, who):
    return sum(1 for r in rounds if r[who] == "D")


class Base:
    """A helper base class: not a bot by itself."""

    def pick(self, n):
        return MOVES[n % 3]
