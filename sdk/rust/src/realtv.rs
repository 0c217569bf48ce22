//! Real TV: players on an island vote each other out; betrayers share a bounty when the team
//! fails its trial (rules: `docs/rules/realtv.md`).
//!
//! ```no_run
//! use arena::realtv::{self, weakest, Context, Vote};
//!
//! #[derive(Default)]
//! struct LikesThemStrong;
//!
//! impl realtv::Player for LikesThemStrong {
//!     fn vote_for_elimination(&mut self, ctx: &Context) -> Vote {
//!         weakest(ctx.active_players.values().filter(|p| p.id != ctx.own_id)).into()
//!     }
//!     fn vote_for_tie(&mut self, ctx: &Context) -> Vote {
//!         weakest(ctx.current_ties.values()).into()
//!     }
//! }
//! # fn main() { arena::serve(arena::Bot { name: "LikesThemStrong", author: "", version: "", games: vec![realtv::play(LikesThemStrong::default)] }); }
//! ```
//!
//! A contest opens 11 seats in one process, the instances of strength 0 to 10, for all its
//! phases: `make` is called once per instance and each keeps its own memory (share memory
//! between them through an `Rc<RefCell<..>>` the factory clones). Voting for yourself, for a
//! player who is not active, or not voting ([`Vote::none`]) in the first vote is betrayal.

use std::collections::BTreeMap;
use std::time::Duration;

use crate::json::Value;
use crate::{Clock, Game, MatchResult, Outcome, SeatInfo};

/// The game's registry name.
pub const GAME: &str = "realtv";

/// Players per island.
pub const PLAYERS_PER_ISLAND: i32 = 12;
/// A trial with n players succeeds when their strengths sum to `DIFFICULTY_A * n + DIFFICULTY_B`
/// or more.
pub const DIFFICULTY_A: i32 = 7;
pub const DIFFICULTY_B: i32 = -3;
/// Points for a passed trial, for the last one standing, and shared by the betrayers when the
/// team fails.
pub const SCORE_FOR_TRIAL: i32 = 3;
pub const SCORE_FOR_LASTMAN: i32 = 100;
pub const SCORE_FOR_ALL_TRAITORS: i32 = 100;

/// Which vote is asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    Unspecified,
    /// The day's first vote.
    Elimination,
    /// The tie-break vote among `current_ties`.
    Tie,
}

const DECISIONS: [&str; 3] = ["REALTV_DECISION_UNSPECIFIED", "REALTV_DECISION_ELIMINATION", "REALTV_DECISION_TIE"];

/// A player's votes of one day on the current island (ids as given; "" when none).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Votes {
    pub first_vote: String,
    pub tie_vote: String,
}

/// One player as seen at the start of the day.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PlayerContext {
    pub id: String,
    /// Class name of the player's script ("BotPareto" for a filler bot).
    pub name: String,
    pub strength: i32,
    /// Score as of the start of the day (fractional after a split bounty).
    pub score: f64,
    /// Votes this player cast on the current island, one per day, oldest first.
    pub previous_moves: Vec<Votes>,
}

/// The seed's GameContext.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GameContext {
    /// Filler bots in the whole arena this phase.
    pub total_bots: i32,
    /// Script instances in the whole arena.
    pub total_humans: i32,
    /// Islands this instance has been on before this one.
    pub phase_index: i32,
}

/// One instance of the script.
#[derive(Clone, Debug, PartialEq)]
pub struct Setup {
    pub seat: SeatInfo,
    /// The instance's own id (10 upper-case letters and digits).
    pub id: String,
    /// Class name of the script (the bot's `name`).
    pub name: String,
    pub strength: i32,
    pub phases: i32,
    pub players_per_island: i32,
    /// Index of this instance among its script's instances (equal to its strength).
    pub instance: i32,
}

/// The whole state of the instance's island, and the vote asked. One per seat, replaced
/// with every request (the island is small: nothing needs rebuilding).
#[derive(Clone, Debug)]
pub struct Context {
    pub setup: Setup,
    pub decision: Decision,
    pub island_index: i32,
    /// Day on this island, from 1.
    pub day: i32,
    pub game: GameContext,
    /// Players on the island by id (for a tie vote, those left after today's traitors went).
    pub active_players: BTreeMap<String, PlayerContext>,
    /// Those who share the bounty if the team fails a trial.
    pub betrayers: BTreeMap<String, PlayerContext>,
    pub eliminated_players: BTreeMap<String, PlayerContext>,
    /// The tied players, only during a tie vote.
    pub current_ties: BTreeMap<String, PlayerContext>,
    /// This instance's own score now.
    pub own_score: f64,
    pub own_id: String,
    /// This move's time.
    pub clock: Clock,
}

impl Context {
    fn new(setup: Setup) -> Context {
        Context {
            decision: Decision::Unspecified,
            island_index: 0,
            day: 0,
            game: GameContext::default(),
            active_players: BTreeMap::new(),
            betrayers: BTreeMap::new(),
            eliminated_players: BTreeMap::new(),
            current_ties: BTreeMap::new(),
            own_score: 0.0,
            own_id: setup.id.clone(),
            clock: Clock::default(),
            setup,
        }
    }

    /// Time left for this vote (see [`Clock::time_left`]).
    pub fn time_left(&self) -> Duration {
        self.clock.time_left()
    }

    /// This instance on the island, if it is active.
    pub fn me(&self) -> Option<&PlayerContext> {
        self.active_players.get(&self.own_id)
    }

    /// The active players other than this instance.
    pub fn others(&self) -> impl Iterator<Item = &PlayerContext> {
        self.active_players.values().filter(move |p| p.id != self.own_id)
    }

    fn observe(&mut self, o: &Value) {
        self.decision = match o.field_enum("decision", &DECISIONS) {
            1 => Decision::Elimination,
            2 => Decision::Tie,
            _ => Decision::Unspecified,
        };
        self.island_index = o.field_i32("islandIndex");
        self.day = o.field_i32("day");
        let g = o.field("game");
        self.game = GameContext {
            total_bots: g.map_or(0, |g| g.field_i32("totalBots")),
            total_humans: g.map_or(0, |g| g.field_i32("totalHumans")),
            phase_index: g.map_or(0, |g| g.field_i32("phaseIndex")),
        };
        self.active_players = players(o.field_members("activePlayers"));
        self.betrayers = players(o.field_members("betrayers"));
        self.eliminated_players = players(o.field_members("eliminatedPlayers"));
        self.current_ties = players(o.field_members("currentTies"));
        self.own_score = o.field_f64("ownScore");
        let own_id = o.field_str("ownId");
        if !own_id.is_empty() {
            self.own_id = own_id.to_owned();
        }
    }
}

/// A map of players, keyed (and so ordered) by id.
fn players(m: &[(String, Value)]) -> BTreeMap<String, PlayerContext> {
    m.iter()
        .map(|(k, p)| {
            let id = Some(p.field_str("id")).filter(|s| !s.is_empty()).unwrap_or(k).to_owned();
            let previous_moves = p
                .field_items("previousMoves")
                .iter()
                .map(|v| Votes { first_vote: v.field_str("firstVote").to_owned(), tie_vote: v.field_str("tieVote").to_owned() })
                .collect();
            let player = PlayerContext { id, name: p.field_str("name").to_owned(), strength: p.field_i32("strength"), score: p.field_f64("score"), previous_moves };
            (k.clone(), player)
        })
        .collect()
}

/// The player of least strength (the smallest id among equals); `None` if there is none.
pub fn weakest<'a>(players: impl IntoIterator<Item = &'a PlayerContext>) -> Option<&'a PlayerContext> {
    players.into_iter().min_by(|a, b| (a.strength, &a.id).cmp(&(b.strength, &b.id)))
}

/// The player of greatest strength (the smallest id among equals); `None` if there is none.
pub fn strongest<'a>(players: impl IntoIterator<Item = &'a PlayerContext>) -> Option<&'a PlayerContext> {
    players.into_iter().min_by(|a, b| (-(a.strength as i64), &a.id).cmp(&(-(b.strength as i64), &b.id)))
}

/// A vote: the id of the player voted for, or "" for no vote. Made from a player, an id, or
/// an `Option` of either (`weakest(..).into()`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Vote(pub String);

impl Vote {
    /// No vote (betrayal in a first vote; ignored in a tie vote).
    pub fn none() -> Vote {
        Vote(String::new())
    }
}

impl From<&PlayerContext> for Vote {
    fn from(p: &PlayerContext) -> Vote {
        Vote(p.id.clone())
    }
}
impl From<Option<&PlayerContext>> for Vote {
    fn from(p: Option<&PlayerContext>) -> Vote {
        p.map_or_else(Vote::none, Vote::from)
    }
}
impl From<&str> for Vote {
    fn from(id: &str) -> Vote {
        Vote(id.to_owned())
    }
}
impl From<String> for Vote {
    fn from(id: String) -> Vote {
        Vote(id)
    }
}
impl From<Option<String>> for Vote {
    fn from(id: Option<String>) -> Vote {
        Vote(id.unwrap_or_default())
    }
}

/// A Real TV script.
pub trait Player {
    /// Called once when the instance is created, with its id and strength.
    fn start(&mut self, _setup: &Setup) {}
    /// The day's vote: who should leave the island.
    fn vote_for_elimination(&mut self, ctx: &Context) -> Vote;
    /// The tie-break vote among `ctx.current_ties`.
    fn vote_for_tie(&mut self, ctx: &Context) -> Vote;
    /// Called once when the contest is over; `outcome.score` is this instance's score.
    fn end(&mut self, _outcome: &Outcome<'_, Context>) {}
}

/// The bot plays Real TV: `make` makes one player per instance (seat).
pub fn play<P: Player + 'static>(mut make: impl FnMut() -> P + 'static) -> Game {
    Game::new(GAME, move |seat, s| {
        let setup = Setup {
            seat,
            id: s.field_str("id").to_owned(),
            name: s.field_str("name").to_owned(),
            strength: s.field_i32("strength"),
            phases: s.field_i32("phases"),
            players_per_island: s.field_i32("playersPerIsland"),
            instance: s.field_i32("instance"),
        };
        let mut player = make();
        player.start(&setup);
        Box::new(RealtvSeat { player, ctx: Context::new(setup) })
    })
}

struct RealtvSeat<P> {
    player: P,
    ctx: Context,
}

/// The host refuses an answer over 1 KiB: a longer id cannot be sent as a vote.
const MAX_VOTE_ID: usize = 900;

impl<P: Player> crate::Seat for RealtvSeat<P> {
    fn game(&self) -> &'static str {
        GAME
    }

    fn act(&mut self, _step: i64, obs: &Value, clock: Clock, out: &mut String) -> Result<(), String> {
        self.ctx.observe(obs);
        self.ctx.clock = clock;
        let Vote(id) = if self.ctx.decision == Decision::Tie {
            self.player.vote_for_tie(&self.ctx)
        } else {
            self.player.vote_for_elimination(&self.ctx)
        };
        if id.len() > MAX_VOTE_ID {
            return Err(format!("the vote is an id of {} bytes (ids are 10 characters; the host refuses an answer over 1 KiB)", id.len()));
        }
        if id.is_empty() {
            out.push_str("\"realtv\":{}");
        } else {
            out.push_str("\"realtv\":{\"voteId\":");
            crate::json::write_str(out, &id);
            out.push('}');
        }
        Ok(())
    }

    fn end(&mut self, result: MatchResult, score: f64, obs: Option<&Value>) {
        if let Some(o) = obs {
            self.ctx.observe(o);
        }
        self.player.end(&Outcome { result, score, state: &self.ctx });
    }
}
