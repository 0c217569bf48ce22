//! Dynamite: rock, paper, scissors, dynamite and water balloons (rules: `docs/rules/dynamite.md`).
//!
//! ```no_run
//! use arena::dynamite::{self, Move, State};
//!
//! #[derive(Default)]
//! struct Rocky;
//!
//! impl dynamite::Player for Rocky {
//!     fn r#move(&mut self, state: &State) -> Move {
//!         if state.own_dynamite_left > 0 && state.stake > 2 { Move::Dynamite } else { Move::Rock }
//!     }
//! }
//! # fn main() { arena::serve(arena::Bot { name: "rocky", author: "", version: "", games: vec![dynamite::play(Rocky::default)] }); }
//! ```
//!
//! A fresh player plays each match. `state.rounds` lists every round played so far, oldest
//! first, from this bot's side (`own` is its throw, `opponent` the other's).

use std::time::Duration;

use crate::json::Value;
use crate::{Clock, Game, MatchResult, Outcome, SeatInfo};

/// The game's registry name.
pub const GAME: &str = "dynamite";

/// A throw.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Move {
    Rock,
    Paper,
    Scissors,
    /// Beats rock, paper and scissors; 100 per match.
    Dynamite,
    /// Beats dynamite only.
    Water,
}

/// The five throws.
pub const MOVES: [Move; 5] = [Move::Rock, Move::Paper, Move::Scissors, Move::Dynamite, Move::Water];

const WIRE: [&str; 6] = [
    "DYNAMITE_MOVE_UNSPECIFIED",
    "DYNAMITE_MOVE_ROCK",
    "DYNAMITE_MOVE_PAPER",
    "DYNAMITE_MOVE_SCISSORS",
    "DYNAMITE_MOVE_DYNAMITE",
    "DYNAMITE_MOVE_WATER",
];

impl Move {
    /// The seed's letter: R, P, S, D or W.
    pub fn letter(self) -> char {
        ['R', 'P', 'S', 'D', 'W'][self as usize]
    }

    /// The throw of a seed letter (R, P, S, D, W; either case).
    pub fn from_letter(c: char) -> Option<Move> {
        MOVES.iter().copied().find(|m| m.letter() == c.to_ascii_uppercase())
    }

    /// Whether this throw beats `other`.
    pub fn beats(self, other: Move) -> bool {
        use Move::*;
        matches!(
            (self, other),
            (Rock, Scissors) | (Scissors, Paper) | (Paper, Rock) | (Dynamite, Rock | Paper | Scissors) | (Water, Dynamite) | (Rock | Paper | Scissors, Water)
        )
    }

    /// The plain throw (R, P or S) that beats `self`; for dynamite, water; for water, rock.
    pub fn beaten_by(self) -> Move {
        match self {
            Move::Rock => Move::Paper,
            Move::Paper => Move::Scissors,
            Move::Scissors => Move::Rock,
            Move::Dynamite => Move::Water,
            Move::Water => Move::Rock,
        }
    }

    fn wire(self) -> &'static str {
        WIRE[self as usize + 1]
    }

    fn from_wire(n: i32) -> Option<Move> {
        MOVES.get((n as usize).wrapping_sub(1)).copied()
    }
}

/// One played round from this bot's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Round {
    pub own: Move,
    pub opponent: Move,
}

/// A dynamite match's fixed rules.
#[derive(Clone, Debug, PartialEq)]
pub struct Setup {
    pub seat: SeatInfo,
    /// Points that win the match (1000).
    pub target_score: i32,
    /// Round cap (2500); at the cap the higher score wins.
    pub max_rounds: i32,
    /// Dynamite each player may throw (100); one more forfeits.
    pub dynamite_per_player: i32,
}

/// What the bot sees before a round. One per seat, updated in place every round.
#[derive(Clone, Debug)]
pub struct State {
    pub setup: Setup,
    /// The round about to be played, from 1.
    pub round: i32,
    /// Every round played so far, oldest first.
    pub rounds: Vec<Round>,
    pub own_score: i32,
    pub opponent_score: i32,
    pub own_dynamite_left: i32,
    pub opponent_dynamite_left: i32,
    /// Points the coming round is worth: 1 plus the draws rolled over.
    pub stake: i32,
    /// This move's time.
    pub clock: Clock,
}

impl State {
    fn new(setup: Setup) -> State {
        let d = setup.dynamite_per_player;
        State {
            setup,
            round: 0,
            rounds: Vec::new(),
            own_score: 0,
            opponent_score: 0,
            own_dynamite_left: d,
            opponent_dynamite_left: d,
            stake: 1,
            clock: Clock::default(),
        }
    }

    /// Time left for this move (see [`Clock::time_left`]).
    pub fn time_left(&self) -> Duration {
        self.clock.time_left()
    }

    fn observe(&mut self, o: &Value) {
        let round = o.field_i32("round");
        // Append the previous round once, even if a request is ever repeated.
        let last = (Move::from_wire(o.field_enum("lastOwn", &WIRE)), Move::from_wire(o.field_enum("lastOpponent", &WIRE)));
        if let (Some(own), Some(opponent)) = last {
            if (self.rounds.len() as i64) < round as i64 - 1 {
                self.rounds.push(Round { own, opponent });
            }
        }
        self.round = round;
        self.own_score = o.field_i32("ownScore");
        self.opponent_score = o.field_i32("opponentScore");
        self.own_dynamite_left = o.field_i32("ownDynamiteLeft");
        self.opponent_dynamite_left = o.field_i32("opponentDynamiteLeft");
        self.stake = o.field_i32("stake");
    }
}

/// A dynamite bot.
pub trait Player {
    /// Called once when the match opens, before the first move.
    fn start(&mut self, _setup: &Setup) {}
    /// The throw for the coming round.
    fn r#move(&mut self, state: &State) -> Move;
    /// Called once when the match is over.
    fn end(&mut self, _outcome: &Outcome<'_, State>) {}
}

/// The bot plays dynamite: `make` makes a fresh player for each match.
pub fn play<P: Player + 'static>(mut make: impl FnMut() -> P + 'static) -> Game {
    Game::new(GAME, move |seat, s| {
        let setup = Setup {
            seat,
            target_score: s.field_i32("targetScore"),
            max_rounds: s.field_i32("maxRounds"),
            dynamite_per_player: s.field_i32("dynamitePerPlayer"),
        };
        let mut player = make();
        player.start(&setup);
        Box::new(DynamiteSeat { player, state: State::new(setup) })
    })
}

struct DynamiteSeat<P> {
    player: P,
    state: State,
}

impl<P: Player> crate::Seat for DynamiteSeat<P> {
    fn game(&self) -> &'static str {
        GAME
    }

    fn act(&mut self, _step: i64, obs: &Value, clock: Clock, out: &mut String) -> Result<(), String> {
        self.state.observe(obs);
        self.state.clock = clock;
        let m = self.player.r#move(&self.state);
        out.push_str("\"dynamite\":{\"move\":\"");
        out.push_str(m.wire());
        out.push_str("\"}");
        Ok(())
    }

    fn end(&mut self, result: MatchResult, score: f64, obs: Option<&Value>) {
        if let Some(o) = obs {
            self.state.observe(o);
        }
        self.player.end(&Outcome { result, score, state: &self.state });
    }
}
