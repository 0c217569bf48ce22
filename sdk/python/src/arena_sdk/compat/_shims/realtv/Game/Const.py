"""Game.Const: the seed's constants (arena_sdk seed-compatibility shim).

Values the seed gives are the seed's; the other names are the original engine's (steemian/realTV,
project/Game/Const.py), with the value that holds in the arena.
"""


class Const:
    PLAYERS_PER_ISLAND = 12
    MIN_BOTS_PER_ISLAND = 0        # islands get only as many filler bots as they need
    MAX_HUMANS_PER_ISLAND = 12     # instances are spread evenly, at most 12 to an island

    PHASES_PER_GAME = 100
    STARTING_SCORE = 0
    NB_RUNS_FOR_STATS = 20         # the original's statistics runs; unused by the arena

    RANDOM_ID_LEN = 10             # length of an instance id (upper-case letters and digits)

    SCORE_FOR_TRIAL = 3
    SCORE_FOR_LASTMAN = 100
    SCORE_FOR_EACH_TRAITOR = 0
    SCORE_FOR_TRAITOR = SCORE_FOR_EACH_TRAITOR  # an earlier spelling of the original's
    SCORE_FOR_ALL_TRAITORS = 100

    INSTANCES_STRENGTH = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
    INSTANCES_PER_PLAYER = len(INSTANCES_STRENGTH)

    DIFFICULTY_A = 7           # round difficulty is A*n + B
    DIFFICULTY_B = -3
