//! Finger ("chopsticks"): hit the opponent's hands or switch your own fingers (rules:
//! `docs/rules/finger.md`).
//!
//! ```no_run
//! use arena::finger::{self, Move, State};
//!
//! #[derive(Default)]
//! struct First;
//!
//! impl finger::Player for First {
//!     fn r#move(&mut self, state: &State) -> Move {
//!         state.legal_moves()[0]
//!     }
//! }
//! # fn main() { arena::serve(arena::Bot { name: "first", author: "", version: "", games: vec![finger::play(First::default)] }); }
//! ```
//!
//! `Move::LeftToRight` means: my LEFT hand hits the opponent's RIGHT hand.
//! `Move::Switch { left, right }` sets my hands to `left` and `right` fingers (same total). A
//! match is a series of games; `state.history` holds the moves of the current game only, with
//! who made each one.

use std::time::Duration;

use crate::json::Value;
use crate::{Clock, Game, MatchResult, Outcome, SeatInfo};

/// The game's registry name.
pub const GAME: &str = "finger";

/// A move: one of the four hits (my hand, then the opponent's hand it hits) or a switch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    LeftToLeft,
    LeftToRight,
    RightToLeft,
    RightToRight,
    /// Set my hands to exactly these counts (same total, not the same hands nor their mirror,
    /// none over 5).
    Switch { left: i32, right: i32 },
}

/// The four hits.
pub const HITS: [Move; 4] = [Move::LeftToLeft, Move::LeftToRight, Move::RightToLeft, Move::RightToRight];

const WIRE: [&str; 6] = [
    "FINGER_MOVE_UNSPECIFIED",
    "FINGER_MOVE_LEFT_TO_LEFT",
    "FINGER_MOVE_LEFT_TO_RIGHT",
    "FINGER_MOVE_RIGHT_TO_LEFT",
    "FINGER_MOVE_RIGHT_TO_RIGHT",
    "FINGER_MOVE_SWITCH",
];

impl Move {
    /// For a hit: (my attacking hand, the opponent's hand hit), 0 = left, 1 = right.
    pub fn hands(self) -> Option<(usize, usize)> {
        match self {
            Move::LeftToLeft => Some((0, 0)),
            Move::LeftToRight => Some((0, 1)),
            Move::RightToLeft => Some((1, 0)),
            Move::RightToRight => Some((1, 1)),
            Move::Switch { .. } => None,
        }
    }

    fn from_wire(a: &Value) -> Move {
        match a.field_enum("move", &WIRE) {
            n @ 1..=4 => HITS[n as usize - 1],
            _ => Move::Switch { left: a.field_i32("switchLeft"), right: a.field_i32("switchRight") },
        }
    }
}

/// One move of the current game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HistoryEntry {
    /// Name of the player who moved.
    pub player: String,
    pub action: Move,
    /// True when this bot made the move (names may repeat when a bot plays itself).
    pub own: bool,
}

/// A finger match: a series of games.
#[derive(Clone, Debug, PartialEq)]
pub struct Setup {
    pub seat: SeatInfo,
    /// Games in the match.
    pub games: i32,
    /// Moves after which a game ends with both players losing.
    pub max_rounds: i32,
    pub own_name: String,
    pub opponent_name: String,
}

/// What the bot sees before its move. One per seat, updated in place.
#[derive(Clone, Debug)]
pub struct State {
    pub setup: Setup,
    /// Game within the match, from 1.
    pub game: i32,
    /// True on this bot's first move of a new game.
    pub new_game: bool,
    /// Move number within the current game, from 1: the move about to be played.
    pub round: i32,
    /// Name of the player who started the current game.
    pub starting_player: String,
    /// True when this bot started the current game.
    pub started: bool,
    pub own_left: i32,
    pub own_right: i32,
    pub opponent_left: i32,
    pub opponent_right: i32,
    /// Moves of the current game, oldest first (emptied for each game).
    pub history: Vec<HistoryEntry>,
    /// Games of the match won, lost, and ended by the move cap (both lose).
    pub games_won: i32,
    pub games_lost: i32,
    pub games_both_lost: i32,
    /// This move's time.
    pub clock: Clock,
}

impl State {
    fn new(setup: Setup) -> State {
        State {
            setup,
            game: 0,
            new_game: false,
            round: 0,
            starting_player: String::new(),
            started: false,
            own_left: 1,
            own_right: 1,
            opponent_left: 1,
            opponent_right: 1,
            history: Vec::new(),
            games_won: 0,
            games_lost: 0,
            games_both_lost: 0,
            clock: Clock::default(),
        }
    }

    /// Time left for this move (see [`Clock::time_left`]).
    pub fn time_left(&self) -> Duration {
        self.clock.time_left()
    }

    pub fn own_name(&self) -> &str {
        &self.setup.own_name
    }

    pub fn opponent_name(&self) -> &str {
        &self.setup.opponent_name
    }

    /// Whether `m` is legal now (an illegal move loses the game at once).
    pub fn legal(&self, m: Move) -> bool {
        let own = [self.own_left, self.own_right];
        match m {
            Move::Switch { left, right } => {
                (0..=5).contains(&left)
                    && (0..=5).contains(&right)
                    && left + right == own[0] + own[1]
                    && [left, right] != own
                    && [right, left] != own
            }
            hit => {
                let (from, to) = hit.hands().unwrap_or((0, 0));
                own[from] > 0 && [self.opponent_left, self.opponent_right][to] > 0
            }
        }
    }

    /// Every legal move now: the hits first, then the switches by growing left hand.
    pub fn legal_moves(&self) -> Vec<Move> {
        let total = self.own_left + self.own_right;
        HITS.iter()
            .copied()
            .chain((0..=5).map(|left| Move::Switch { left, right: total - left }))
            .filter(|&m| self.legal(m))
            .collect()
    }

    fn observe(&mut self, o: &Value) {
        let game = o.field_i32("game");
        let new_game = o.field_bool("newGame");
        if new_game || game != self.game {
            self.history.clear();
        }
        self.game = game;
        self.new_game = new_game;
        self.round = o.field_i32("round");
        self.starting_player = o.field_str("startingPlayer").to_owned();
        self.started = o.field_bool("started");
        self.own_left = o.field_i32("ownLeft");
        self.own_right = o.field_i32("ownRight");
        self.opponent_left = o.field_i32("opponentLeft");
        self.opponent_right = o.field_i32("opponentRight");
        self.games_won = o.field_i32("gamesWon");
        self.games_lost = o.field_i32("gamesLost");
        self.games_both_lost = o.field_i32("gamesBothLost");
        for e in o.field_items("recent") {
            let action = e.field("action").map_or(Move::Switch { left: 0, right: 0 }, Move::from_wire);
            self.history.push(HistoryEntry { player: e.field_str("player").to_owned(), action, own: e.field_bool("own") });
        }
    }
}

/// A finger bot.
pub trait Player {
    /// Called once when the match opens.
    fn start(&mut self, _setup: &Setup) {}
    /// The move to play now.
    fn r#move(&mut self, state: &State) -> Move;
    /// Called once when the match is over (finger sends no final observation).
    fn end(&mut self, _outcome: &Outcome<'_, State>) {}
}

/// The bot plays finger: `make` makes a fresh player for each match (all its games).
pub fn play<P: Player + 'static>(mut make: impl FnMut() -> P + 'static) -> Game {
    Game::new(GAME, move |seat, s| {
        let setup = Setup {
            seat,
            games: s.field_i32("games"),
            max_rounds: s.field_i32("maxRounds"),
            own_name: s.field_str("ownName").to_owned(),
            opponent_name: s.field_str("opponentName").to_owned(),
        };
        let mut player = make();
        player.start(&setup);
        Box::new(FingerSeat { player, state: State::new(setup) })
    })
}

struct FingerSeat<P> {
    player: P,
    state: State,
}

impl<P: Player> crate::Seat for FingerSeat<P> {
    fn game(&self) -> &'static str {
        GAME
    }

    fn act(&mut self, _step: i64, obs: &Value, clock: Clock, out: &mut String) -> Result<(), String> {
        self.state.observe(obs);
        self.state.clock = clock;
        let m = self.player.r#move(&self.state);
        out.push_str("\"finger\":{\"move\":\"");
        match m {
            Move::Switch { left, right } => {
                out.push_str(WIRE[5]);
                out.push('"');
                if left != 0 {
                    out.push_str(&format!(",\"switchLeft\":{left}"));
                }
                if right != 0 {
                    out.push_str(&format!(",\"switchRight\":{right}"));
                }
            }
            hit => {
                let i = HITS.iter().position(|&h| h == hit).unwrap_or(0);
                out.push_str(WIRE[i + 1]);
                out.push('"');
            }
        }
        out.push('}');
        Ok(())
    }

    fn end(&mut self, result: MatchResult, score: f64, obs: Option<&Value>) {
        if let Some(o) = obs {
            self.state.observe(o);
        }
        self.player.end(&Outcome { result, score, state: &self.state });
    }
}
