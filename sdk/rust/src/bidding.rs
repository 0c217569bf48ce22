//! Bidding: two players bid for a bottle that moves one place toward each round's winner
//! (rules: `docs/rules/bidding.md`).
//!
//! ```no_run
//! use arena::bidding::{self, State};
//!
//! #[derive(Default)]
//! struct Steady;
//!
//! impl bidding::Player for Steady {
//!     fn bid(&mut self, state: &State) -> i64 {
//!         state.own_money.min(12)
//!     }
//! }
//! # fn main() { arena::serve(arena::Bot { name: "steady", author: "", version: "", games: vec![bidding::play(Steady::default)] }); }
//! ```
//!
//! A bid must be at least 1 and at most `state.own_money`, or 0 when the bot has no money
//! left. A match is a series of games with sides alternating; `state.own_bids` and
//! `state.opponent_bids` hold the bids of the current game only.

use std::time::Duration;

use crate::json::Value;
use crate::{Clock, Game, MatchResult, Outcome, SeatInfo};

/// The game's registry name.
pub const GAME: &str = "bidding";

/// Side A wins the bottle at place 10, side B at place 0. A holds the draw advantage first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    Unknown,
    A,
    B,
}

const SIDES: [&str; 3] = ["BIDDING_PLAYER_UNSPECIFIED", "BIDDING_PLAYER_A", "BIDDING_PLAYER_B"];

/// A bidding match: a series of games.
#[derive(Clone, Debug, PartialEq)]
pub struct Setup {
    pub seat: SeatInfo,
    pub games: i32,
    /// Dollars each player has at the start of every game.
    pub start_money: i64,
    /// Rounds after which a game without a winner is a draw.
    pub max_rounds: i32,
    pub own_name: String,
    pub opponent_name: String,
}

/// What the bot sees before a bid. One per seat, updated in place.
#[derive(Clone, Debug)]
pub struct State {
    pub setup: Setup,
    /// Game within the match, from 1.
    pub game: i32,
    /// True on the first bid of a new game.
    pub new_game: bool,
    /// Round within the game, from 1.
    pub round: i32,
    pub side: Side,
    pub own_money: i64,
    pub opponent_money: i64,
    pub start_money: i64,
    /// Place of the bottle, 0..=10; side A wins at 10, side B at 0.
    pub bottle_position: i32,
    /// Bids of the current game, oldest first (emptied for each game).
    pub own_bids: Vec<i64>,
    pub opponent_bids: Vec<i64>,
    /// Rounds of the current game won and lost (a tie goes to the draw advantage's holder).
    pub rounds_won: i32,
    pub rounds_lost: i32,
    /// True while this bot holds the draw advantage.
    pub draw_advantage: bool,
    pub opponent_name: String,
    /// Games of the match decided so far.
    pub games_won: i32,
    pub games_lost: i32,
    pub games_drawn: i32,
    /// This move's time.
    pub clock: Clock,
}

impl State {
    fn new(setup: Setup) -> State {
        State {
            game: 0,
            new_game: false,
            round: 0,
            side: Side::Unknown,
            own_money: setup.start_money,
            opponent_money: setup.start_money,
            start_money: setup.start_money,
            bottle_position: 5,
            own_bids: Vec::new(),
            opponent_bids: Vec::new(),
            rounds_won: 0,
            rounds_lost: 0,
            draw_advantage: false,
            opponent_name: setup.opponent_name.clone(),
            games_won: 0,
            games_lost: 0,
            games_drawn: 0,
            clock: Clock::default(),
            setup,
        }
    }

    /// Time left for this move (see [`Clock::time_left`]).
    pub fn time_left(&self) -> Duration {
        self.clock.time_left()
    }

    pub fn own_name(&self) -> &str {
        &self.setup.own_name
    }

    pub fn is_player_a(&self) -> bool {
        self.side == Side::A
    }

    /// How many more rounds this bot must win (net) for the bottle to reach its end.
    pub fn places_to_win(&self) -> i32 {
        if self.side == Side::A {
            10 - self.bottle_position
        } else {
            self.bottle_position
        }
    }

    /// How many more rounds the opponent must win (net) to take the bottle.
    pub fn places_to_lose(&self) -> i32 {
        10 - self.places_to_win()
    }

    /// The least legal bid: 1, or 0 when this bot has no money left.
    pub fn min_bid(&self) -> i64 {
        self.own_money.min(1)
    }

    fn observe(&mut self, o: &Value) {
        let game = o.field_i32("game");
        let new_game = o.field_bool("newGame");
        let round = o.field_i32("round");
        if new_game || game != self.game {
            self.own_bids.clear();
            self.opponent_bids.clear();
        }
        // The previous round's bids, once (the round number guards against a repeat).
        if o.field_bool("hasLast") && (self.own_bids.len() as i64) < round as i64 - 1 {
            self.own_bids.push(o.field_i64("lastOwnBid"));
            self.opponent_bids.push(o.field_i64("lastOpponentBid"));
        }
        self.game = game;
        self.new_game = new_game;
        self.round = round;
        self.side = match o.field_enum("player", &SIDES) {
            1 => Side::A,
            2 => Side::B,
            _ => Side::Unknown,
        };
        self.own_money = o.field_i64("ownMoney");
        self.opponent_money = o.field_i64("opponentMoney");
        self.start_money = o.field_i64("startMoney");
        self.bottle_position = o.field_i32("bottlePosition");
        self.rounds_won = o.field_i32("roundsWon");
        self.rounds_lost = o.field_i32("roundsLost");
        self.draw_advantage = o.field_bool("drawAdvantage");
        let name = o.field_str("opponentName");
        if !name.is_empty() {
            self.opponent_name = name.to_owned();
        }
        self.games_won = o.field_i32("gamesWon");
        self.games_lost = o.field_i32("gamesLost");
        self.games_drawn = o.field_i32("gamesDrawn");
    }
}

/// A bidding bot.
pub trait Player {
    /// Called once when the match opens.
    fn start(&mut self, _setup: &Setup) {}
    /// This round's sealed bid in whole dollars.
    fn bid(&mut self, state: &State) -> i64;
    /// Called once when the match is over (bidding sends no final observation).
    fn end(&mut self, _outcome: &Outcome<'_, State>) {}
}

/// The bot plays bidding: `make` makes a fresh player for each match (all its games).
pub fn play<P: Player + 'static>(mut make: impl FnMut() -> P + 'static) -> Game {
    Game::new(GAME, move |seat, s| {
        let setup = Setup {
            seat,
            games: s.field_i32("games"),
            start_money: s.field_i64("startMoney"),
            max_rounds: s.field_i32("maxRounds"),
            own_name: s.field_str("ownName").to_owned(),
            opponent_name: s.field_str("opponentName").to_owned(),
        };
        let mut player = make();
        player.start(&setup);
        Box::new(BiddingSeat { player, state: State::new(setup) })
    })
}

struct BiddingSeat<P> {
    player: P,
    state: State,
}

impl<P: Player> crate::Seat for BiddingSeat<P> {
    fn game(&self) -> &'static str {
        GAME
    }

    fn act(&mut self, _step: i64, obs: &Value, clock: Clock, out: &mut String) -> Result<(), String> {
        self.state.observe(obs);
        self.state.clock = clock;
        let bid = self.player.bid(&self.state);
        if bid == 0 {
            out.push_str("\"bidding\":{}");
        } else {
            out.push_str(&format!("\"bidding\":{{\"bid\":\"{bid}\"}}"));
        }
        Ok(())
    }

    fn end(&mut self, result: MatchResult, score: f64, obs: Option<&Value>) {
        if let Some(o) = obs {
            self.state.observe(o);
        }
        self.player.end(&Outcome { result, score, state: &self.state });
    }
}
