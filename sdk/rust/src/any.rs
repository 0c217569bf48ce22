//! Any game, as JSON: the path for a game this kit has no module for (or a bot that wants the
//! wire messages as they are). The player gets the game's setup and each observation as a
//! [`Value`] (the `<game>` member of the request, protojson names and all: see
//! `docs/protocol.md` section 8) and answers each move with the action as a JSON object, which
//! the kit sends as the `<game>` member of the answer. Everything else (seats, the clock,
//! steps, errors) is the kit's, as for the game modules.
//!
//! ```no_run
//! use arena::any::{self, State};
//! use arena::json::Value;
//!
//! #[derive(Default)]
//! struct Heads;
//!
//! impl any::Player for Heads {
//!     fn act(&mut self, _state: &State) -> Value {
//!         Value::object([("call", "HEADS".into())])
//!     }
//! }
//!
//! fn main() {
//!     arena::serve(arena::Bot { name: "heads", author: "me", version: "", games: vec![any::play("coin", Heads::default)] });
//! }
//! ```

use std::time::Duration;

use crate::json::Value;
use crate::{Clock, Game, MatchResult, Outcome, SeatInfo};

/// How a seat of the game opened.
#[derive(Clone, Debug, PartialEq)]
pub struct Setup {
    pub seat: SeatInfo,
    /// The game's registry name.
    pub game: String,
    /// The game's setup message (`{}` when the request carried none).
    pub setup: Value,
}

/// What the player sees before a move. One per seat, updated every move.
#[derive(Clone, Debug)]
pub struct State {
    pub setup: Setup,
    /// The move's step number, as the request gave it (the kit echoes it in the answer).
    pub step: i64,
    /// The game's observation message of this move (after the match, the final one, if sent).
    pub observation: Value,
    /// This move's time.
    pub clock: Clock,
}

impl State {
    /// Time left for this move (see [`Clock::time_left`]).
    pub fn time_left(&self) -> Duration {
        self.clock.time_left()
    }
}

/// A bot of any game.
pub trait Player {
    /// Called once when the match opens, before the first move.
    fn start(&mut self, _setup: &Setup) {}
    /// The action for this move: a JSON object, the game's action message.
    fn act(&mut self, state: &State) -> Value;
    /// Called once when the match is over.
    fn end(&mut self, _outcome: &Outcome<'_, State>) {}
}

/// The bot plays `game` as JSON: `make` makes a fresh player for each match.
pub fn play<P: Player + 'static>(game: impl Into<String>, mut make: impl FnMut() -> P + 'static) -> Game {
    let game = game.into();
    Game::new(game.clone(), move |seat, setup| {
        let setup = Setup { seat, game: game.clone(), setup: setup.clone() };
        let mut player = make();
        player.start(&setup);
        Box::new(JsonSeat { player, state: State { setup, step: 0, observation: Value::Object(Vec::new()), clock: Clock::default() } })
    })
}

struct JsonSeat<P> {
    player: P,
    state: State,
}

impl<P: Player> crate::Seat for JsonSeat<P> {
    fn game(&self) -> &str {
        &self.state.setup.game
    }

    fn act(&mut self, step: i64, obs: &Value, clock: Clock, out: &mut String) -> Result<(), String> {
        self.state.step = step;
        self.state.observation = obs.clone();
        self.state.clock = clock;
        let action = self.player.act(&self.state);
        if !matches!(action, Value::Object(_)) {
            return Err(format!("the {} action must be a JSON object, not {action}", self.state.setup.game));
        }
        crate::json::write_str(out, &self.state.setup.game);
        out.push(':');
        out.push_str(&action.to_string());
        Ok(())
    }

    fn end(&mut self, result: MatchResult, score: f64, obs: Option<&Value>) {
        if let Some(o) = obs {
            self.state.observation = o.clone();
        }
        self.player.end(&Outcome { result, score, state: &self.state });
    }
}
