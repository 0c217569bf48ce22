//! The kit's self-test: recorded JSON-lines transcripts (`tests/transcripts/*.jsonl`, built
//! from the examples of docs/protocol.md section 8, plus malformed input) fed through the
//! library and through each example bot of `examples/rust/`, answers checked line by line.
//!
//!     cargo test --offline --manifest-path sdk/rust/Cargo.toml

use std::cell::RefCell;
use std::rc::Rc;
use std::time::Duration;

use arena::json::{self, Value};
use arena::{auction, bidding, dynamite, finger, realtv, MatchResult};

// The example bots, compiled into this test as they are (each has `pub fn bot()`).
#[allow(dead_code)]
#[path = "../../../examples/rust/dynamite/src/main.rs"]
mod dynamite_bot;
#[allow(dead_code)]
#[path = "../../../examples/rust/finger/src/main.rs"]
mod finger_bot;
#[allow(dead_code)]
#[path = "../../../examples/rust/bidding/src/main.rs"]
mod bidding_bot;
#[allow(dead_code)]
#[path = "../../../examples/rust/auction/src/main.rs"]
mod auction_bot;
#[allow(dead_code)]
#[path = "../../../examples/rust/realtv/src/main.rs"]
mod realtv_bot;

// ------------------------------------------------------------------------------------------
// Harness

fn transcript(name: &str) -> String {
    let path = format!("{}/tests/transcripts/{name}.jsonl", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Runs the bot over `input` and returns its answers, parsed; fails unless there is exactly
/// one well-formed JSON line per input line.
fn play(bot: arena::Bot, input: &str) -> Vec<Value> {
    let mut out = Vec::new();
    arena::run(bot, input.as_bytes(), &mut out).expect("run");
    let text = String::from_utf8(out).expect("answers are UTF-8");
    assert!(text.is_empty() || text.ends_with('\n'), "the last answer has no newline: {text:?}");
    let answers: Vec<&str> = text.lines().collect();
    let asked = input.split_inclusive('\n').count();
    assert_eq!(answers.len(), asked, "{asked} lines in, {} out:\n{text}", answers.len());
    answers.iter().map(|a| json::parse(a).unwrap_or_else(|e| panic!("answer {a:?} is not JSON: {e}"))).collect()
}

/// The requests of a transcript, as (call, message).
fn requests(input: &str) -> Vec<(String, Value)> {
    input
        .lines()
        .map(|l| match json::parse(l) {
            Ok(Value::Object(mut m)) if m.len() == 1 => {
                let (k, v) = m.remove(0);
                (k, v)
            }
            _ => ("malformed".to_owned(), Value::Null),
        })
        .collect()
}

fn is_empty_object(v: &Value) -> bool {
    matches!(v, Value::Object(m) if m.is_empty())
}

/// The checks every transcript's answers pass: describe names the bot, start and end answer
/// `{}`, every act echoes its step and carries one action of the game and no error. Returns
/// the (request, action) pairs of the acts for the game's own checks.
fn check_protocol(game: &str, input: &str, answers: &[Value]) -> Vec<(Value, Value)> {
    let mut acts = Vec::new();
    for ((call, req), ans) in requests(input).into_iter().zip(answers) {
        match call.as_str() {
            "describe" => {
                assert!(!ans.field_str("name").is_empty(), "describe: {ans}");
                assert_eq!(ans.field_str("sdk"), "rust/0.1.0");
                assert_eq!(ans.field_strings("games"), vec![game.to_owned()]);
            }
            "start" | "end" => assert!(is_empty_object(ans), "{call} {req}: {ans}"),
            "act" => {
                assert_eq!(ans.field("step"), Some(&Value::Str(req.field_i64("step").to_string())), "step of {req}");
                assert!(ans.field("error").is_none(), "act {req}: error answer {ans}");
                let action = ans.field(game).unwrap_or_else(|| panic!("act {req}: no {game} action in {ans}"));
                assert!(matches!(action, Value::Object(_)), "{ans}");
                assert_eq!(ans.members().len(), 2, "one action only: {ans}");
                acts.push((req.field(game).cloned().unwrap(), action.clone()));
            }
            other => panic!("unexpected call {other}"),
        }
    }
    acts
}

fn bot(games: Vec<arena::Game>) -> arena::Bot {
    arena::Bot { name: "tester", author: "selftest", version: "1", games }
}

/// Shared record of what a test player saw.
type Log<T> = Rc<RefCell<Vec<T>>>;

// ------------------------------------------------------------------------------------------
// Dynamite

struct DynRecorder {
    seen: Log<dynamite::State>,
    ended: Log<(MatchResult, f64, usize)>,
    answer: dynamite::Move,
}

impl dynamite::Player for DynRecorder {
    fn r#move(&mut self, state: &dynamite::State) -> dynamite::Move {
        self.seen.borrow_mut().push(state.clone());
        self.answer
    }
    fn end(&mut self, o: &arena::Outcome<'_, dynamite::State>) {
        self.ended.borrow_mut().push((o.result, o.score, o.state.rounds.len()));
    }
}

fn dyn_recorder(answer: dynamite::Move) -> (arena::Bot, Log<dynamite::State>, Log<(MatchResult, f64, usize)>) {
    let seen: Log<dynamite::State> = Rc::default();
    let ended: Log<(MatchResult, f64, usize)> = Rc::default();
    let (s, e) = (seen.clone(), ended.clone());
    let b = bot(vec![dynamite::play(move || DynRecorder { seen: s.clone(), ended: e.clone(), answer })]);
    (b, seen, ended)
}

#[test]
fn dynamite_history_rebuilt() {
    use dynamite::Move::*;
    let input = transcript("dynamite");
    let (b, seen, ended) = dyn_recorder(Scissors);
    let answers = play(b, &input);
    check_protocol("dynamite", &input, &answers);
    let seen = seen.borrow();
    let lens: Vec<usize> = seen.iter().map(|s| s.rounds.len()).collect();
    assert_eq!(lens, [0, 1, 2, 3, 3], "a repeated request must not grow the history");
    let rounds: Vec<(dynamite::Move, dynamite::Move)> = seen[3].rounds.iter().map(|r| (r.own, r.opponent)).collect();
    assert_eq!(rounds, [(Rock, Rock), (Paper, Rock), (Dynamite, Rock)]);
    let s = &seen[3];
    assert_eq!((s.round, s.own_score, s.opponent_score, s.own_dynamite_left, s.opponent_dynamite_left, s.stake), (4, 3, 0, 99, 100, 1));
    assert_eq!(seen[1].stake, 2);
    assert_eq!(s.setup.seat.players, ["cycler", "rocky"]);
    assert_eq!((s.setup.target_score, s.setup.max_rounds, s.setup.dynamite_per_player), (1000, 2500, 100));
    assert_eq!(s.setup.seat.deadline, Duration::from_millis(1000));
    // The end carries the last round: appended once.
    assert_eq!(*ended.borrow(), [(MatchResult::Win, 1001.0, 4)]);
}

#[test]
fn time_left_counts_from_the_line() {
    let input = transcript("dynamite");
    let (b, seen, _) = dyn_recorder(dynamite::Move::Rock);
    play(b, &input);
    let s = &seen.borrow()[0];
    let left = s.clock.time_left();
    assert!(left <= Duration::from_millis(1000) && left > Duration::from_millis(500), "time left {left:?}");
    assert!(s.clock.elapsed() < Duration::from_millis(500));
    assert_eq!(s.clock.clock_remaining(), Duration::ZERO);
}

#[test]
fn cpu_clock_budget_bank_and_wall_cap() {
    let input = concat!(
        r#"{"start":{"matchId":"m","game":"dynamite","players":["a","b"],"deadlineMs":"50"}}"#, "\n",
        r#"{"act":{"matchId":"m","step":"1","deadlineMs":"50","clockMode":"CLOCK_MODE_CPU","budgetUs":"50500","bankRemainingUs":"2000","wallCapMs":"151","dynamite":{"round":1}}}"#, "\n",
        r#"{"act":{"matchId":"m","step":"2","deadlineMs":"40","dynamite":{"round":2}}}"#, "\n",
    );
    let (b, seen, _) = dyn_recorder(dynamite::Move::Rock);
    play(b, input);
    let got: Vec<(bool, Duration, Duration, Duration)> =
        seen.borrow().iter().map(|s| (s.clock.cpu_clock(), s.clock.budget(), s.clock.bank_remaining(), s.clock.wall_cap())).collect();
    assert_eq!(
        got,
        [
            (true, Duration::from_micros(50500), Duration::from_millis(2), Duration::from_millis(151)),
            (false, Duration::from_millis(40), Duration::ZERO, Duration::from_millis(40)),
        ]
    );
}

#[test]
fn dynamite_example_bot() {
    let input = transcript("dynamite");
    let answers = play(dynamite_bot::bot(), &input);
    for (_, action) in check_protocol("dynamite", &input, &answers) {
        let m = action.field_str("move");
        assert!(m.starts_with("DYNAMITE_MOVE_") && m != "DYNAMITE_MOVE_UNSPECIFIED", "{action}");
    }
}

/// A small dynamite engine: `rounds` rounds of the example bot against a fixed throw, through
/// the kit's lines. Returns (own points, opponent points, own dynamite thrown).
fn dynamite_match(opponent: impl Fn(usize) -> &'static str, rounds: usize) -> (i32, i32, i32) {
    let names = ["R", "P", "S", "D", "W"];
    let wire = |l: &str| format!("DYNAMITE_MOVE_{}", ["ROCK", "PAPER", "SCISSORS", "DYNAMITE", "WATER"][names.iter().position(|n| *n == l).unwrap()]);
    let beats = |a: &str, b: &str| matches!((a, b), ("R", "S") | ("S", "P") | ("P", "R") | ("D", "R" | "P" | "S") | ("W", "D") | ("R" | "P" | "S", "W"));
    // Each round replays the whole match so far to a fresh bot (it is deterministic) and
    // takes its answer to the last line: the public `run` API, no threads.
    let (mut own, mut opp, mut stake, mut dyn_used, mut last): (i32, i32, i32, i32, Option<(String, String)>) = (0, 0, 1, 0, None);
    let mut lines = String::from("{\"start\":{\"matchId\":\"sim\",\"game\":\"dynamite\",\"deadlineMs\":\"1000\",\"dynamite\":{\"targetScore\":1000,\"maxRounds\":2500,\"dynamitePerPlayer\":100}}}\n");
    for r in 0..rounds {
        let mut obs = format!("\"round\":{},\"ownScore\":{own},\"opponentScore\":{opp},\"ownDynamiteLeft\":{},\"opponentDynamiteLeft\":100,\"stake\":{stake}", r + 1, 100 - dyn_used);
        if let Some((a, b)) = &last {
            obs.push_str(&format!(",\"lastOwn\":\"{}\",\"lastOpponent\":\"{}\"", wire(a), wire(b)));
        }
        lines.push_str(&format!("{{\"act\":{{\"matchId\":\"sim\",\"step\":\"{}\",\"dynamite\":{{{obs}}}}}}}\n", r + 1));
        // Ask with everything so far; the bot's answer to the last line is this round's throw.
        let answers = play(dynamite_bot::bot(), &lines);
        let m = answers.last().unwrap().field("dynamite").unwrap().field_str("move").trim_start_matches("DYNAMITE_MOVE_").to_owned();
        let mine = names[["ROCK", "PAPER", "SCISSORS", "DYNAMITE", "WATER"].iter().position(|n| *n == m).unwrap()];
        let theirs = opponent(r);
        if mine == "D" {
            dyn_used += 1;
        }
        if beats(mine, theirs) {
            own += stake;
            stake = 1;
        } else if beats(theirs, mine) {
            opp += stake;
            stake = 1;
        } else {
            stake += 1;
        }
        last = Some((mine.to_owned(), theirs.to_owned()));
    }
    (own, opp, dyn_used)
}

#[test]
fn dynamite_example_beats_simple_bots() {
    let (own, opp, _) = dynamite_match(|_| "P", 60);
    assert!(own > 3 * opp, "against paper: {own} to {opp}");
    let (own, opp, used) = dynamite_match(|r| ["R", "P", "S"][r % 3], 60);
    assert!(used <= 100);
    assert!(own + opp > 0, "against a cycle: {own} to {opp}");
}

// ------------------------------------------------------------------------------------------
// Finger

struct FingerRecorder {
    seen: Log<finger::State>,
    answers: Vec<finger::Move>,
}

impl finger::Player for FingerRecorder {
    fn r#move(&mut self, state: &finger::State) -> finger::Move {
        self.seen.borrow_mut().push(state.clone());
        let n = self.seen.borrow().len();
        self.answers.get(n - 1).copied().unwrap_or(finger::Move::Switch { left: 0, right: 1 })
    }
}

#[test]
fn finger_history_rebuilt() {
    use finger::Move::*;
    let input = transcript("finger");
    let seen: Log<finger::State> = Rc::default();
    let s = seen.clone();
    let answers = play(bot(vec![finger::play(move || FingerRecorder { seen: s.clone(), answers: vec![RightToRight, LeftToRight] })]), &input);
    let acts = check_protocol("finger", &input, &answers);
    assert_eq!(acts[0].1.to_string(), r#"{"move":"FINGER_MOVE_RIGHT_TO_RIGHT"}"#);
    assert_eq!(acts[2].1.to_string(), r#"{"move":"FINGER_MOVE_SWITCH","switchRight":1}"#);
    let seen = seen.borrow();
    let h = |i: usize| seen[i].history.iter().map(|e| (e.player.as_str(), e.action, e.own)).collect::<Vec<_>>();
    assert_eq!(h(0), [("lefty", LeftToRight, false)]);
    assert_eq!(h(1), [("lefty", LeftToRight, false), ("righty", RightToRight, true), ("lefty", RightToRight, false)]);
    assert_eq!(h(2).len(), 5);
    assert_eq!(h(2)[4], ("lefty", Switch { left: 2, right: 3 }, false));
    assert_eq!(h(3), [], "a new game starts a new history");
    let s1 = &seen[1];
    assert_eq!((s1.own_left, s1.own_right, s1.opponent_left, s1.opponent_right, s1.round), (1, 0, 1, 3, 4));
    assert!(seen[0].new_game && !seen[1].new_game && seen[3].new_game && seen[3].started);
    assert_eq!((seen[3].game, seen[3].games_lost), (2, 1));
    assert_eq!((s1.own_name(), s1.opponent_name(), s1.setup.games, s1.setup.seat.index), ("righty", "lefty", 3, 1));
    assert!(!s1.legal(RightToLeft) && s1.legal(LeftToRight) && !s1.legal(Switch { left: 0, right: 1 }) && !s1.legal(Switch { left: 1, right: 0 }));
}

/// The finger rules for one answer: `action` is legal with the hands of `obs`.
fn finger_legal(obs: &Value, action: &Value) -> bool {
    let own = [obs.field_i32("ownLeft"), obs.field_i32("ownRight")];
    let opp = [obs.field_i32("opponentLeft"), obs.field_i32("opponentRight")];
    let hit = |from: usize, to: usize| own[from] > 0 && opp[to] > 0;
    match action.field_str("move") {
        "FINGER_MOVE_LEFT_TO_LEFT" => hit(0, 0),
        "FINGER_MOVE_LEFT_TO_RIGHT" => hit(0, 1),
        "FINGER_MOVE_RIGHT_TO_LEFT" => hit(1, 0),
        "FINGER_MOVE_RIGHT_TO_RIGHT" => hit(1, 1),
        "FINGER_MOVE_SWITCH" => {
            let (l, r) = (action.field_i32("switchLeft"), action.field_i32("switchRight"));
            (0..=5).contains(&l) && (0..=5).contains(&r) && l + r == own[0] + own[1] && [l, r] != own && [r, l] != own
        }
        _ => false,
    }
}

#[test]
fn finger_example_bot() {
    let input = transcript("finger");
    let answers = play(finger_bot::bot(), &input);
    for (obs, action) in check_protocol("finger", &input, &answers) {
        assert!(finger_legal(&obs, &action), "illegal {action} for {obs}");
    }
    // The position of step 6 (own 1/0 against 2/3): it must not lose its last hand to a hit
    // it could avoid; with 1 finger left, hitting the 3 makes 4 and the reply 4+1 kills us.
    let (obs, action) = &check_protocol("finger", &input, &answers)[2];
    assert!(finger_legal(obs, action));
}

// ------------------------------------------------------------------------------------------
// Bidding

struct BidRecorder {
    seen: Log<bidding::State>,
}

impl bidding::Player for BidRecorder {
    fn bid(&mut self, state: &bidding::State) -> i64 {
        self.seen.borrow_mut().push(state.clone());
        if state.round == 2 {
            0
        } else {
            12
        }
    }
}

#[test]
fn bidding_history_rebuilt() {
    let input = transcript("bidding");
    let seen: Log<bidding::State> = Rc::default();
    let s = seen.clone();
    let answers = play(bot(vec![bidding::play(move || BidRecorder { seen: s.clone() })]), &input);
    let acts = check_protocol("bidding", &input, &answers);
    assert_eq!(acts[0].1.to_string(), r#"{"bid":"12"}"#);
    assert_eq!(acts[1].1.to_string(), "{}", "a bid of 0 is the empty action");
    let seen = seen.borrow();
    assert_eq!(seen[2].own_bids, [12, 12]);
    assert_eq!(seen[2].opponent_bids, [10, 12]);
    assert!(seen[3].own_bids.is_empty() && seen[3].opponent_bids.is_empty(), "a new game clears the bids");
    assert_eq!(seen[2].side, bidding::Side::A);
    assert_eq!(seen[3].side, bidding::Side::B);
    assert_eq!((seen[2].own_money, seen[2].bottle_position, seen[2].rounds_won, seen[2].draw_advantage), (76, 7, 2, false));
    assert!(seen[1].draw_advantage);
    assert_eq!((seen[2].places_to_win(), seen[3].places_to_win(), seen[3].games_lost), (3, 5, 1));
    assert_eq!(seen[0].opponent_name, "climber");
}

#[test]
fn bidding_example_bot() {
    let input = transcript("bidding");
    let answers = play(bidding_bot::bot(), &input);
    for (obs, action) in check_protocol("bidding", &input, &answers) {
        let bid = action.field_i64("bid");
        let money = obs.field_i64("ownMoney");
        assert!(matches!(action.field("bid"), Some(Value::Str(_))), "an int64 bid is a JSON string: {action}");
        assert!((1..=money).contains(&bid), "bid {bid} with {money}");
    }
}

// ------------------------------------------------------------------------------------------
// Auction

struct AuctionRecorder {
    seen: Log<auction::State>,
    ended: Log<auction::State>,
}

impl auction::Player for AuctionRecorder {
    fn bid(&mut self, state: &auction::State) -> i64 {
        self.seen.borrow_mut().push(state.clone());
        7
    }
    fn end(&mut self, o: &arena::Outcome<'_, auction::State>) {
        self.ended.borrow_mut().push(o.state.clone());
    }
}

#[test]
fn auction_history_rebuilt() {
    let input = transcript("auction");
    let seen: Log<auction::State> = Rc::default();
    let ended: Log<auction::State> = Rc::default();
    let (s, e) = (seen.clone(), ended.clone());
    let answers = play(bot(vec![auction::play(move || AuctionRecorder { seen: s.clone(), ended: e.clone() })]), &input);
    let acts = check_protocol("auction", &input, &answers);
    assert_eq!(acts[0].1.to_string(), r#"{"bid":7}"#);
    let seen = seen.borrow();
    assert!(seen[0].rounds.is_empty());
    assert_eq!(seen[0].winning_bid, -1);
    assert_eq!(seen[0].item, "t1");
    assert_eq!(seen[0].setup.auction_items.len(), 12);
    assert_eq!(seen[0].setup.seat.clock, Duration::from_secs(120));
    assert_eq!(seen[1].rounds, [auction::RoundResult { item_index: 0, artist: "t1".into(), winner: Some("bob".into()), bid: 20 }]);
    assert_eq!(seen[1].wealth_table.get("bob"), Some(&80));
    assert_eq!(seen[1].remain_time.get("cy"), Some(&120.0));
    assert_eq!(seen[2].rounds.len(), 2);
    assert_eq!(seen[2].own_collection().get("t0"), Some(&1));
    assert_eq!(seen[2].own_money, 93);
    assert_eq!(seen[2].own_remain_time(), 119.0);
    assert_eq!(seen[2].clock.clock_remaining(), Duration::from_secs(119));
    let end = &ended.borrow()[0];
    assert_eq!(end.rounds.len(), 3);
    assert_eq!(end.collection("bob").get("t1"), Some(&2));
    assert_eq!(end.needs("bob", "t1"), 0);
    assert_eq!(end.needs("ann", "t1"), 2);
    assert!(end.finished);
    assert_eq!(end.game_winner, "bob");
}

#[test]
fn auction_example_bot() {
    let input = transcript("auction");
    let answers = play(auction_bot::bot(), &input);
    let acts = check_protocol("auction", &input, &answers);
    for (obs, action) in &acts {
        let bid = action.field_f64("bid");
        assert!(bid >= 0.0 && bid.fract() == 0.0 && bid <= obs.field_i64("ownMoney") as f64, "{action} for {obs}");
    }
    // Its target is t1 (two works by item 2): it bids on t1 and nothing on t0.
    assert!(acts[0].1.field_f64("bid") > 0.0, "item 0 is t1: {}", acts[0].1);
    assert_eq!(acts[1].1.field_f64("bid"), 0.0, "item 1 is t0: {}", acts[1].1);
}

// ------------------------------------------------------------------------------------------
// Real TV

struct TvRecorder {
    seen: Log<realtv::Context>,
}

impl realtv::Player for TvRecorder {
    fn vote_for_elimination(&mut self, ctx: &realtv::Context) -> realtv::Vote {
        self.seen.borrow_mut().push(ctx.clone());
        realtv::weakest(ctx.others()).into()
    }
    fn vote_for_tie(&mut self, ctx: &realtv::Context) -> realtv::Vote {
        self.seen.borrow_mut().push(ctx.clone());
        realtv::strongest(ctx.current_ties.values()).into()
    }
}

#[test]
fn realtv_state() {
    let input = transcript("realtv");
    let seen: Log<realtv::Context> = Rc::default();
    let s = seen.clone();
    let answers = play(bot(vec![realtv::play(move || TvRecorder { seen: s.clone() })]), &input);
    let acts = check_protocol("realtv", &input, &answers);
    assert_eq!(acts[0].1.to_string(), r#"{"voteId":"5WAK85AXOM"}"#);
    assert_eq!(acts[1].1.to_string(), r#"{"voteId":"6YO7JTF9TS"}"#);
    let seen = seen.borrow();
    let c = &seen[0];
    assert_eq!(c.decision, realtv::Decision::Elimination);
    assert_eq!((c.active_players.len(), c.betrayers.len(), c.day, c.own_score, c.game.total_humans), (6, 6, 2, 3.0, 11));
    assert_eq!(c.me().map(|p| p.strength), Some(10));
    assert_eq!(c.betrayers["S8NJSG2V0V"].name, "BotPareto");
    assert_eq!(c.active_players["05RT4VQLKK"].previous_moves, [realtv::Votes { first_vote: "S8NJSG2V0V".into(), tie_vote: String::new() }]);
    assert_eq!((c.setup.strength, c.setup.instance, c.setup.id.as_str()), (10, 10, "6YO7JTF9TS"));
    assert_eq!(seen[1].decision, realtv::Decision::Tie);
    assert_eq!(seen[1].current_ties.len(), 3);
}

#[test]
fn realtv_example_bot() {
    let input = transcript("realtv");
    let answers = play(realtv_bot::bot(), &input);
    let acts = check_protocol("realtv", &input, &answers);
    for (obs, action) in &acts {
        let vote = action.field_str("voteId");
        let pool = if obs.field_str("decision") == "REALTV_DECISION_TIE" { "currentTies" } else { "activePlayers" };
        assert!(obs.field_members(pool).iter().any(|(k, _)| k == vote), "vote {vote:?} not in {pool}");
    }
    // Day 2: strengths 5..10 pass the trial (45 >= 39), even without it (35 >= 32): it stays
    // loyal and votes out the weakest other. The tie vote is never for itself.
    assert_eq!(acts[0].1.field_str("voteId"), "5WAK85AXOM");
    assert_ne!(acts[1].1.field_str("voteId"), "6YO7JTF9TS");
    assert_eq!(answers[0].field_str("name"), "Reckoner");
    // A doomed island (strengths 10, 1, 2: 13 < 18): it betrays, voting for itself.
    let player = |id: &str, s: i32| format!("\"{id}\":{{\"id\":\"{id}\",\"name\":\"X\",\"strength\":{s}}}");
    let doomed = format!(
        "{{\"start\":{{\"matchId\":\"d\",\"game\":\"realtv\",\"realtv\":{{\"id\":\"ME\",\"strength\":10}}}}}}\n\
         {{\"act\":{{\"matchId\":\"d\",\"step\":\"1\",\"realtv\":{{\"decision\":\"REALTV_DECISION_ELIMINATION\",\"activePlayers\":{{{},{},{}}},\"ownId\":\"ME\",\"day\":1}}}}}}\n",
        player("ME", 10), player("A", 1), player("B", 2)
    );
    let answers = play(realtv_bot::bot(), &doomed);
    assert_eq!(answers[1].to_string(), r#"{"step":"1","realtv":{"voteId":"ME"}}"#);
}

// ------------------------------------------------------------------------------------------
// Faults, refusals, malformed input

struct Panicky;

impl dynamite::Player for Panicky {
    fn r#move(&mut self, state: &dynamite::State) -> dynamite::Move {
        match state.round {
            2 => panic!("boom at round {}", state.round),
            3 => arena::invalid_answer("nothing to throw"),
            _ => dynamite::Move::Paper,
        }
    }
}

#[test]
fn panic_becomes_an_exception_answer() {
    let input = transcript("dynamite");
    let answers = play(bot(vec![dynamite::play(|| Panicky)]), &input);
    assert_eq!(answers[2].to_string(), r#"{"step":"1","dynamite":{"move":"DYNAMITE_MOVE_PAPER"}}"#);
    let err = answers[3].field("error").unwrap_or_else(|| panic!("no error: {}", answers[3]));
    assert_eq!(answers[3].field_str("step"), "2");
    assert!(answers[3].field("dynamite").is_none(), "{}", answers[3]);
    assert_eq!(err.field_str("kind"), "BOT_ERROR_KIND_EXCEPTION");
    assert!(err.field_str("message").contains("boom at round 2"), "{err}");
    assert!(!err.field_str("message").contains('\n'));
    let tb = err.field_str("traceback");
    assert!(tb.contains("panicked at") && tb.contains("selftest.rs"), "traceback: {tb}");
    assert!(tb.contains("Panicky"), "the user's frame is in the traceback: {tb}");
    let err = answers[4].field("error").unwrap();
    assert_eq!(err.field_str("kind"), "BOT_ERROR_KIND_INVALID_ANSWER");
    assert_eq!(err.field_str("message"), "nothing to throw");
    assert!(err.field("traceback").is_none());
    // It plays on.
    assert_eq!(answers[5].field("dynamite").unwrap().field_str("move"), "DYNAMITE_MOVE_PAPER");
}

#[test]
fn panic_in_start_refuses_the_seat() {
    struct Never;
    impl dynamite::Player for Never {
        fn start(&mut self, _: &dynamite::Setup) {
            panic!("cannot start");
        }
        fn r#move(&mut self, _: &dynamite::State) -> dynamite::Move {
            dynamite::Move::Rock
        }
    }
    let input = transcript("dynamite");
    let answers = play(bot(vec![dynamite::play(|| Never)]), &input);
    assert!(answers[1].field_str("error").contains("cannot start"), "{}", answers[1]);
    let err = answers[2].field("error").unwrap();
    assert_eq!(err.field_str("kind"), "BOT_ERROR_KIND_INVALID_ANSWER");
    assert!(err.field_str("message").contains("no open seat"));
}

#[test]
fn long_vote_is_an_invalid_answer() {
    struct Long;
    impl realtv::Player for Long {
        fn vote_for_elimination(&mut self, _: &realtv::Context) -> realtv::Vote {
            "X".repeat(5000).into()
        }
        fn vote_for_tie(&mut self, _: &realtv::Context) -> realtv::Vote {
            realtv::Vote::none()
        }
    }
    let input = transcript("realtv");
    let answers = play(bot(vec![realtv::play(|| Long)]), &input);
    assert_eq!(answers[3].field("error").unwrap().field_str("kind"), "BOT_ERROR_KIND_INVALID_ANSWER");
    assert_eq!(answers[4].to_string(), r#"{"step":"3","realtv":{}}"#, "no vote is the empty action");
}

#[test]
fn malformed_and_unknown_input() {
    let input = transcript("malformed");
    let (b, seen, ended) = dyn_recorder(dynamite::Move::Water);
    let a = play(b, &input);
    let kind = |v: &Value| v.field("error").map(|e| e.field_str("kind").to_owned()).unwrap_or_default();
    // Not a request at all: an error answer each, the bot lives on.
    for (i, why) in [(0, "is not JSON"), (1, "is not JSON"), (2, "is not a JSON object")] {
        assert_eq!(kind(&a[i]), "BOT_ERROR_KIND_INVALID_ANSWER", "line {}: {}", i + 1, a[i]);
        assert!(a[i].field("error").unwrap().field_str("message").contains(why), "{}", a[i]);
    }
    assert!(is_empty_object(&a[3]), "an unknown call: {}", a[3]);
    assert_eq!(a[4].field_str("name"), "tester", "unknown top-level fields are ignored");
    assert!(a[5].field_str("error").contains("does not play chess (it plays dynamite;"), "{}", a[5]);
    assert!(a[6].field_str("error").contains("does not play finger (it plays dynamite;"), "{}", a[6]);
    assert!(a[7].field_str("error").contains("with a finger setup"), "{}", a[7]);
    assert_eq!(kind(&a[8]), "BOT_ERROR_KIND_INVALID_ANSWER");
    assert_eq!(a[8].field_str("step"), "5");
    assert!(is_empty_object(&a[9]), "proto names and unknown fields: {}", a[9]);
    // step given as a number, deadline as a string, enums by number, snake_case names.
    assert_eq!(a[10].to_string(), r#"{"step":"7","dynamite":{"move":"DYNAMITE_MOVE_WATER"}}"#);
    assert_eq!(kind(&a[11]), "BOT_ERROR_KIND_INVALID_ANSWER", "another game's observation: {}", a[11]);
    assert!(a[11].field("error").unwrap().field_str("message").contains("expected a dynamite observation, got finger"));
    assert_eq!(a[12].field_str("step"), "9");
    assert_eq!(a[13].field_str("step"), "-9223372036854775808");
    assert!(is_empty_object(&a[14]) && is_empty_object(&a[15]));
    assert_eq!(kind(&a[16]), "BOT_ERROR_KIND_INVALID_ANSWER", "the seat is closed: {}", a[16]);
    assert_eq!(a[17].field_str("sdk"), "rust/0.1.0");
    assert_eq!(a[18].field_str("sdk"), "rust/0.1.0", "a \\r before the newline is allowed");

    let seen = seen.borrow();
    assert_eq!(seen.len(), 3);
    let s = &seen[0];
    assert_eq!(s.setup.target_score, 1000, "snake_case setup fields");
    assert_eq!(s.setup.seat.deadline, Duration::from_millis(250));
    assert_eq!(s.rounds.len(), 1);
    assert_eq!((s.rounds[0].own, s.rounds[0].opponent), (dynamite::Move::Rock, dynamite::Move::Paper));
    assert_eq!(s.own_dynamite_left, 100);
    assert_eq!(seen[1].rounds.len(), 1, "an unknown enum name is UNSPECIFIED: no round appended");
    assert_eq!((seen[2].opponent_score, seen[2].stake), (12, 4), "int32 as a string");
    assert_eq!(*ended.borrow(), [(MatchResult::Loss, 3.5, 1)], "result by number, score as a string");
}

#[test]
fn invalid_utf8_and_missing_newline() {
    let (b, _, _) = dyn_recorder(dynamite::Move::Rock);
    let mut out = Vec::new();
    arena::run(b, &b"\xff\xfe\n{\"describe\":{}}"[..], &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(lines[0].contains("not UTF-8") && lines[1].contains("rust/0.1.0"), "{text}");
}

#[test]
fn seats_are_kept_apart() {
    // Two dynamite matches and two seats of one match, interleaved.
    let start = |m: &str, seat: i32| format!("{{\"start\":{{\"matchId\":\"{m}\",\"seat\":{seat},\"game\":\"dynamite\",\"dynamite\":{{\"dynamitePerPlayer\":100}}}}}}\n");
    let act = |m: &str, seat: i32, step: i32, own: &str| {
        let last = if step > 1 { format!(",\"lastOwn\":\"DYNAMITE_MOVE_{own}\",\"lastOpponent\":\"DYNAMITE_MOVE_ROCK\"") } else { String::new() };
        format!("{{\"act\":{{\"matchId\":\"{m}\",\"seat\":{seat},\"step\":\"{step}\",\"dynamite\":{{\"round\":{step}{last}}}}}}}\n")
    };
    let input = [start("a", 0), start("a", 1), start("b", 0), act("a", 0, 1, ""), act("a", 1, 1, ""), act("b", 0, 1, ""),
        act("a", 0, 2, "PAPER"), act("a", 1, 2, "WATER"), act("a", 0, 3, "SCISSORS"), act("b", 0, 2, "DYNAMITE")]
    .concat();
    let (b, seen, _) = dyn_recorder(dynamite::Move::Rock);
    let answers = play(b, &input);
    assert!(answers.iter().all(|a| a.field("error").is_none()), "{answers:?}");
    let seen = seen.borrow();
    let summary: Vec<(String, i32, Vec<char>)> =
        seen.iter().map(|s| (s.setup.seat.match_id.clone(), s.setup.seat.index, s.rounds.iter().map(|r| r.own.letter()).collect())).collect();
    assert_eq!(summary[5], ("a".into(), 0, vec!['P', 'S']));
    assert_eq!(summary[4], ("a".into(), 1, vec!['W']));
    assert_eq!(summary[6], ("b".into(), 0, vec!['D']));
}

// ------------------------------------------------------------------------------------------
// The transcripts against docs/protocol.md

/// The JSON examples of docs/protocol.md, by "game/name".
fn doc_examples() -> Option<Vec<(String, Value)>> {
    let path = format!("{}/../../docs/protocol.md", env!("CARGO_MANIFEST_DIR"));
    let doc = std::fs::read_to_string(path).ok()?;
    let mut out = Vec::new();
    let mut rest = doc.as_str();
    while let Some(i) = rest.find("<!-- example ") {
        rest = &rest[i + 13..];
        let head = &rest[..rest.find("-->").unwrap()];
        let Some(name) = head.trim().strip_suffix(" json") else { continue };
        let body = &rest[rest.find("```json\n").unwrap() + 8..];
        let body = &body[..body.find("```").unwrap()];
        out.push((name.to_owned(), json::parse(body).unwrap_or_else(|e| panic!("{name}: {e}"))));
    }
    Some(out)
}

#[test]
fn transcripts_hold_the_documented_examples() {
    let Some(examples) = doc_examples() else {
        eprintln!("docs/protocol.md not found: skipped");
        return;
    };
    assert!(examples.len() >= 25, "{} examples", examples.len());
    for (name, msg) in &examples {
        let (game, kind) = name.split_once('/').unwrap();
        if kind.starts_with("answer") {
            continue;
        }
        let t = transcript(game);
        assert!(requests(&t).iter().any(|(_, m)| m == msg), "{name} is not in tests/transcripts/{game}.jsonl");
    }
}

#[test]
fn answers_match_the_documented_examples() {
    let Some(examples) = doc_examples() else { return };
    let doc = |n: &str| examples.iter().find(|(k, _)| k == n).map(|(_, v)| v.clone()).unwrap();
    // Test players that answer what the documented bots answered.
    struct Fixed;
    impl finger::Player for Fixed {
        fn r#move(&mut self, s: &finger::State) -> finger::Move {
            if s.round == 2 { finger::Move::RightToRight } else { finger::Move::LeftToRight }
        }
    }
    impl bidding::Player for Fixed {
        fn bid(&mut self, _: &bidding::State) -> i64 {
            12
        }
    }
    impl auction::Player for Fixed {
        fn bid(&mut self, _: &auction::State) -> i64 {
            7
        }
    }
    impl realtv::Player for Fixed {
        fn vote_for_elimination(&mut self, ctx: &realtv::Context) -> realtv::Vote {
            realtv::weakest(ctx.others()).into()
        }
        fn vote_for_tie(&mut self, _: &realtv::Context) -> realtv::Vote {
            realtv::Vote::none()
        }
    }
    let (dyn_bot, _, _) = dyn_recorder(dynamite::Move::Scissors);
    let cases: Vec<(arena::Bot, &str, &str)> = vec![
        (dyn_bot, "dynamite", "answer-4"),
        (bot(vec![finger::play(|| Fixed)]), "finger", "answer-2"),
        (bot(vec![bidding::play(|| Fixed)]), "bidding", "answer-3"),
        (bot(vec![auction::play(|| Fixed)]), "auction", "answer-2"),
        (bot(vec![realtv::play(|| Fixed)]), "realtv", "answer-2"),
    ];
    for (b, game, answer) in cases {
        let want = doc(&format!("{game}/{answer}"));
        let t = transcript(game);
        let answers = play(b, &t);
        assert!(answers.contains(&want), "{game}: no answer is {want}; got {answers:?}");
    }
    let t = transcript("finger");
    let answers = play(bot(vec![finger::play(|| Fixed)]), &t);
    assert!(answers.contains(&doc("finger/answer-4")));
}

// ------------------------------------------------------------------------------------------
// Any game, as JSON

/// Calls heads in odd rounds, tails in even ones, and keeps what it saw.
struct Coin {
    seen: Log<arena::any::State>,
    ended: Log<(MatchResult, f64, Value)>,
}

impl arena::any::Player for Coin {
    fn act(&mut self, state: &arena::any::State) -> Value {
        self.seen.borrow_mut().push(state.clone());
        let round = state.observation.field_i32("round");
        if round == 0 {
            return Value::from("HEADS"); // not an object: an invalid answer
        }
        Value::object([("call", Value::from(if round % 2 == 1 { "COIN_CALL_HEADS" } else { "COIN_CALL_TAILS" }))])
    }

    fn end(&mut self, o: &arena::Outcome<'_, arena::any::State>) {
        self.ended.borrow_mut().push((o.result, o.score, o.state.observation.clone()));
    }
}

#[test]
fn any_game_as_json() {
    // "coin" is no game of this kit: the generic path plays it from the wire messages alone.
    let input = transcript("coin");
    let (seen, ended): (Log<arena::any::State>, Log<_>) = Default::default();
    let (s, e) = (seen.clone(), ended.clone());
    let b = bot(vec![arena::any::play("coin", move || Coin { seen: s.clone(), ended: e.clone() })]);
    let answers = play(b, &input);
    let acts = check_protocol("coin", &input, &answers);
    let calls: Vec<String> = acts.iter().map(|(_, a)| a.field_str("call").to_owned()).collect();
    assert_eq!(calls, ["COIN_CALL_HEADS", "COIN_CALL_TAILS", "COIN_CALL_HEADS"]);
    assert_eq!(answers[2].to_string(), r#"{"step":"1","coin":{"call":"COIN_CALL_HEADS"}}"#);

    let seen = seen.borrow();
    assert_eq!(seen.len(), 3);
    let s = &seen[1];
    assert_eq!((s.setup.game.as_str(), s.setup.setup.field_i32("rounds")), ("coin", 3));
    assert_eq!((s.setup.seat.match_id.as_str(), s.setup.seat.index), ("m-coin", 1));
    assert_eq!(s.setup.seat.players, ["heads", "tails"]);
    assert_eq!(s.setup.seat.deadline, Duration::from_secs(1));
    assert_eq!((s.step, s.observation.field_str("lastOpponent")), (2, "COIN_CALL_TAILS"));
    assert!(s.clock.budget() == Duration::from_secs(1), "the clock of the move: {:?}", s.clock);
    let ended = ended.borrow();
    assert_eq!(ended.len(), 1);
    assert_eq!((ended[0].0, ended[0].1, ended[0].2.field_i32("ownScore")), (MatchResult::Win, 2.0, 2));

    // An answer that is not an object, another game's observation, and a game the bot does not
    // name are errors, not crashes.
    let input = "{\"start\":{\"matchId\":\"m\",\"game\":\"coin\",\"coin\":{}}}\n\
                 {\"act\":{\"matchId\":\"m\",\"step\":\"4\",\"coin\":{}}}\n\
                 {\"act\":{\"matchId\":\"m\",\"step\":\"5\",\"dice\":{\"round\":1}}}\n\
                 {\"start\":{\"matchId\":\"n\",\"game\":\"dice\",\"dice\":{}}}\n";
    let (s, e) = (Log::default(), Log::default());
    let a = play(bot(vec![arena::any::play("coin", move || Coin { seen: s.clone(), ended: e.clone() })]), input);
    let error = |v: &Value| v.field("error").map(|e| (e.field_str("kind").to_owned(), e.field_str("message").to_owned()));
    assert!(is_empty_object(&a[0]), "{}", a[0]);
    let (kind, msg) = error(&a[1]).unwrap_or_else(|| panic!("{}", a[1]));
    assert_eq!(kind, "BOT_ERROR_KIND_INVALID_ANSWER");
    assert!(msg.contains("the coin action must be a JSON object, not \"HEADS\""), "{msg}");
    assert!(error(&a[2]).unwrap().1.contains("expected a coin observation, got dice"), "{}", a[2]);
    assert!(a[3].field_str("error").contains("does not play dice (it plays coin;"), "{}", a[3]);
}
