"""bidbot.GameState (arena_sdk seed-compatibility shim), filled in by the arena before every bid."""


class GameState:
    PLAYER_A = 0
    PLAYER_B = 1
    UNKNOWN = 3

    def __init__(self) -> None:
        self.opponent_username = ""
        self.player_identifier = GameState.UNKNOWN
        self.opponent_money = 0
        self.my_money = 0
        self.bottle_position = 5
        self.opponents_bids: list[int] = []
        self.my_bids: list[int] = []
        self.start_money = 0
        self.rounds_won = 0
        self.rounds_lost = 0
        self.draw_advantage = False

    @property
    def self(self) -> "GameState":
        # The seed documents ``game_state.self.opponent_username`` and
        # ``game_state.self.player_identifier``.
        return self

    @property
    def opponent_name(self) -> str:
        return self.opponent_username

    def is_player_a(self) -> bool:
        return self.player_identifier == GameState.PLAYER_A

    def get_opponent_name(self) -> str:
        return self.opponent_username

    def get_opponent_username(self) -> str:
        return self.opponent_username

    def __repr__(self) -> str:
        return (f"GameState(player={self.player_identifier}, my_money={self.my_money}, "
                f"opponent_money={self.opponent_money}, bottle={self.bottle_position})")
