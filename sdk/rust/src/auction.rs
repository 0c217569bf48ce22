//! Auction: sealed bids for a known list of paintings; the first to own `required_count`
//! works of one artist wins (rules: `docs/rules/auction.md`).
//!
//! ```no_run
//! use arena::auction::{self, State};
//!
//! #[derive(Default)]
//! struct Collector;
//!
//! impl auction::Player for Collector {
//!     fn bid(&mut self, state: &State) -> i64 {
//!         let mine = state.own_collection().get(&state.item).copied().unwrap_or(0) as i64;
//!         state.own_money.min(10 * (mine + 1))
//!     }
//! }
//! # fn main() { arena::serve(arena::Bot { name: "collector", author: "", version: "", games: vec![auction::play(Collector::default)] }); }
//! ```
//!
//! The whole item list is in `state.setup.auction_items`; `state.rounds` lists every round sold
//! so far and `state.collections` counts what each player owns per artist. A bid above the
//! bot's money, or negative, counts as 0. Each player also has a chess clock for the whole
//! auction: `state.own_remain_time()` and `state.clock.clock_remaining()`.

use std::collections::BTreeMap;
use std::time::Duration;

use crate::json::Value;
use crate::{Clock, Game, MatchResult, Outcome, SeatInfo};

/// The game's registry name.
pub const GAME: &str = "auction";

/// One sold item.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoundResult {
    /// Index of the item in the auction list, from 0.
    pub item_index: i32,
    /// Its artist ("t0", "t1", ...).
    pub artist: String,
    /// Who bought it; `None` when nobody did.
    pub winner: Option<String>,
    /// What the winner paid; -1 when nobody won.
    pub bid: i64,
}

/// The auction's fixed setup.
#[derive(Clone, Debug, PartialEq)]
pub struct Setup {
    pub seat: SeatInfo,
    pub artists_num: i32,
    /// Works of one artist needed to win.
    pub required_count: i32,
    /// The artist of every item, in auction order.
    pub auction_items: Vec<String>,
    pub player_count: i32,
    /// Player names by seat (the keys of `wealth_table`).
    pub player_names: Vec<String>,
    pub own_name: String,
    pub start_money: i64,
}

/// What the bot sees before a bid: the previous round and everything before. One per seat,
/// updated in place.
#[derive(Clone, Debug)]
pub struct State {
    pub setup: Setup,
    /// Index of the item now on sale, from 0.
    pub item_index: i32,
    /// Artist of the item now on sale; "" once the auction is finished.
    pub item: String,
    /// True when the auction is over (seen in `end`).
    pub finished: bool,
    /// The previous round as reported: its artist ("" before the first round), winner
    /// (`None` when nobody won) and price (-1 when nobody won).
    pub bid_item: String,
    pub bid_winner: Option<String>,
    pub winning_bid: i64,
    /// Everyone's money by name; -1 for a disqualified player.
    pub wealth_table: BTreeMap<String, i64>,
    /// Everyone's remaining chess clock by name, in seconds.
    pub remain_time: BTreeMap<String, f64>,
    pub own_money: i64,
    /// The winner once finished; "" for a draw.
    pub game_winner: String,
    /// Every sold round so far, oldest first.
    pub rounds: Vec<RoundResult>,
    /// Works owned per player and artist: `collections[name][artist]`.
    pub collections: BTreeMap<String, BTreeMap<String, i32>>,
    /// This move's time.
    pub clock: Clock,
}

static NO_WORKS: BTreeMap<String, i32> = BTreeMap::new();

impl State {
    fn new(setup: Setup) -> State {
        State {
            item_index: 0,
            item: setup.auction_items.first().cloned().unwrap_or_default(),
            finished: false,
            bid_item: String::new(),
            bid_winner: None,
            winning_bid: -1,
            wealth_table: setup.player_names.iter().map(|n| (n.clone(), setup.start_money)).collect(),
            remain_time: BTreeMap::new(),
            own_money: setup.start_money,
            game_winner: String::new(),
            rounds: Vec::new(),
            collections: setup.player_names.iter().map(|n| (n.clone(), BTreeMap::new())).collect(),
            clock: Clock::default(),
            setup,
        }
    }

    /// Time left for this move (see [`Clock::time_left`]): the move deadline, or what is left
    /// of the chess clock when that is less.
    pub fn time_left(&self) -> Duration {
        self.clock.time_left()
    }

    /// This bot's remaining chess clock in seconds, as of the previous round.
    pub fn own_remain_time(&self) -> f64 {
        self.remain_time
            .get(&self.setup.own_name)
            .copied()
            .unwrap_or_else(|| self.clock.clock_remaining().as_secs_f64())
    }

    /// Works this bot owns per artist.
    pub fn own_collection(&self) -> &BTreeMap<String, i32> {
        self.collection(&self.setup.own_name)
    }

    /// Works the named player owns per artist.
    pub fn collection(&self, player: &str) -> &BTreeMap<String, i32> {
        self.collections.get(player).unwrap_or(&NO_WORKS)
    }

    /// How many more works of `artist` the named player must win.
    pub fn needs(&self, player: &str, artist: &str) -> i32 {
        (self.setup.required_count - self.collection(player).get(artist).copied().unwrap_or(0)).max(0)
    }

    fn observe(&mut self, o: &Value) {
        let item_index = o.field_i32("itemIndex");
        let bid_item = o.field_str("bidItem");
        let winner = Some(o.field_str("bidWinner")).filter(|w| !w.is_empty()).map(str::to_owned);
        let winning_bid = o.field_i64("winningBid");
        let prev = item_index - 1;
        if !bid_item.is_empty() && self.rounds.last().is_none_or(|r| r.item_index < prev) {
            self.rounds.push(RoundResult { item_index: prev, artist: bid_item.to_owned(), winner: winner.clone(), bid: winning_bid });
            if let Some(w) = &winner {
                *self.collections.entry(w.clone()).or_default().entry(bid_item.to_owned()).or_insert(0) += 1;
            }
        }
        self.item_index = item_index;
        self.item = o.field_str("item").to_owned();
        self.finished = o.field_bool("finished");
        self.bid_item = bid_item.to_owned();
        self.bid_winner = winner;
        self.winning_bid = winning_bid;
        self.wealth_table = o.field_members("wealthTable").iter().map(|(k, v)| (k.clone(), v.as_i64())).collect();
        self.remain_time = o.field_members("remainTime").iter().map(|(k, v)| (k.clone(), v.as_f64())).collect();
        self.own_money = o.field_i64("ownMoney");
        self.game_winner = o.field_str("gameWinner").to_owned();
    }
}

/// An auction bot.
pub trait Player {
    /// Called once when the auction opens, with the whole item list.
    fn start(&mut self, _setup: &Setup) {}
    /// The sealed bid for `state.item`, in whole units of money.
    fn bid(&mut self, state: &State) -> i64;
    /// Called once when the auction is over; `outcome.state` has the final round.
    fn end(&mut self, _outcome: &Outcome<'_, State>) {}
}

/// The bot plays the auction: `make` makes a fresh player for each auction.
pub fn play<P: Player + 'static>(mut make: impl FnMut() -> P + 'static) -> Game {
    Game::new(GAME, move |seat, s| {
        let setup = Setup {
            seat,
            artists_num: s.field_i32("artistsNum"),
            required_count: s.field_i32("requiredCount"),
            auction_items: s.field_strings("auctionItems"),
            player_count: s.field_i32("playerCount"),
            player_names: s.field_strings("playerNames"),
            own_name: s.field_str("ownName").to_owned(),
            start_money: s.field_i64("startMoney"),
        };
        let mut player = make();
        player.start(&setup);
        Box::new(AuctionSeat { player, state: State::new(setup) })
    })
}

struct AuctionSeat<P> {
    player: P,
    state: State,
}

impl<P: Player> crate::Seat for AuctionSeat<P> {
    fn game(&self) -> &'static str {
        GAME
    }

    fn act(&mut self, _step: i64, obs: &Value, clock: Clock, out: &mut String) -> Result<(), String> {
        self.state.observe(obs);
        self.state.clock = clock;
        let bid = self.player.bid(&self.state);
        if bid == 0 {
            out.push_str("\"auction\":{}");
        } else {
            // A double on the wire; whole numbers print without a fraction.
            out.push_str(&format!("\"auction\":{{\"bid\":{bid}}}"));
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
