//! `arena`: the Rust kit for arena bots.
//!
//! The arena runs a Rust bot under its stdio bridge: the bot reads one JSON object per line on
//! stdin and answers each with one line on stdout (`docs/protocol.md`, sections 11 and 12).
//! This crate does all of that. A bot implements one game's `Player` trait and hands a
//! factory to [`serve`]:
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
//!
//! fn main() {
//!     arena::serve(arena::Bot {
//!         name: "rocky",
//!         author: "me",
//!         version: "0.1.0",
//!         games: vec![dynamite::play(Rocky::default)],
//!     });
//! }
//! ```
//!
//! A game the kit has no module for is played through [`any`]: the bot names the game and
//! gets the setup and every observation as a [`json::Value`], and answers a JSON action,
//! exactly as a raw JSON-lines program would (`any::play("coin", MyBot::default)`). The core
//! keeps no list of games: a seat of game `g` reads the `g` member of each request.
//!
//! A fresh player (one call of the factory) plays each seat, named by its match id and seat
//! number; its state, with the whole history of the game rebuilt from the deltas the arena
//! sends, is passed to every move. A panic in the player's code becomes an error answer of
//! kind `BOT_ERROR_KIND_EXCEPTION` (with the panic's location and a backtrace) and the bot
//! plays on; [`invalid_answer`] gives up a move as `BOT_ERROR_KIND_INVALID_ANSWER`.
//!
//! stdout is the protocol: [`serve`] moves the real stdout out of the way first, so that
//! `println!` in a bot goes to stderr (the bot's log), and points stdin at `/dev/null`.
//! Print with `eprintln!` all the same.

use std::any::Any;
use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::io::{self, BufRead, Write};
use std::panic::{self, AssertUnwindSafe};
use std::sync::Once;
use std::time::{Duration, Instant};

pub mod any;
pub mod auction;
pub mod bidding;
pub mod dynamite;
pub mod finger;
pub mod json;
pub mod realtv;

use json::Value;

/// What the kit says it is in `DescribeResponse.sdk`.
pub const SDK: &str = "rust/0.1.0";

/// A bot: what it tells the arena about itself and the games it plays.
pub struct Bot {
    /// One line, at most 128 bytes. In realtv this is the class name the other players see.
    pub name: &'static str,
    pub author: &'static str,
    pub version: &'static str,
    /// One entry per game, made by the game module's `play`: `dynamite::play(MyBot::default)`,
    /// or `any::play("coin", MyBot::default)` for any game as JSON.
    pub games: Vec<Game>,
}

/// One game a bot plays: the game's name and how to open a seat of it. Made by
/// `dynamite::play`, `finger::play` and so on, or [`any::play`].
pub struct Game {
    name: String,
    open: Box<OpenSeat>,
}

/// How a game opens a seat: from its `SeatInfo` and its setup message.
type OpenSeat = dyn FnMut(SeatInfo, &Value) -> Box<dyn Seat>;

impl Game {
    pub(crate) fn new(name: impl Into<String>, open: impl FnMut(SeatInfo, &Value) -> Box<dyn Seat> + 'static) -> Game {
        Game { name: name.into(), open: Box::new(open) }
    }

    /// The game's registry name.
    pub fn name(&self) -> &str {
        &self.name
    }
}

/// What every seat learns when it opens, whatever the game (`StartRequest`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SeatInfo {
    /// Unique id of the match (or contest) within the host run.
    pub match_id: String,
    /// This seat's index in the match, from 0.
    pub index: i32,
    /// Display names of all seats, by seat.
    pub players: Vec<String>,
    /// The match's per-move deadline.
    pub deadline: Duration,
    /// The seat's total chess clock; zero when the game has none (all but the auction).
    pub clock: Duration,
}

/// The time for the current move, started when its line arrived.
#[derive(Clone, Copy, Debug)]
pub struct Clock {
    received: Instant,
    deadline: Instant,
    clock_remaining: Duration,
    cpu: bool,
    budget: Duration,
    bank_remaining: Duration,
    wall_cap: Duration,
}

impl Default for Clock {
    fn default() -> Clock {
        let now = Instant::now();
        Clock {
            received: now,
            deadline: now,
            clock_remaining: Duration::ZERO,
            cpu: false,
            budget: Duration::ZERO,
            bank_remaining: Duration::ZERO,
            wall_cap: Duration::ZERO,
        }
    }
}

fn millis(ms: i64) -> Duration {
    Duration::from_millis(ms.max(0) as u64)
}

const CLOCK_MODES: [&str; 3] = ["CLOCK_MODE_UNSPECIFIED", "CLOCK_MODE_WALL", "CLOCK_MODE_CPU"];

impl Clock {
    pub(crate) fn of_request(received: Instant, req: &Value) -> Clock {
        let deadline = millis(req.field_i64("deadlineMs"));
        let budget_us = req.field_i64("budgetUs");
        let wall_cap = req.field_i64("wallCapMs");
        Clock {
            received,
            deadline: received + deadline,
            clock_remaining: millis(req.field_i64("clockRemainingMs")),
            cpu: req.field_enum("clockMode", &CLOCK_MODES) == 2,
            // An older host sends no budget: its deadline is the budget.
            budget: if budget_us > 0 { Duration::from_micros(budget_us as u64) } else { deadline },
            bank_remaining: Duration::from_micros(req.field_i64("bankRemainingUs").max(0) as u64),
            wall_cap: if wall_cap > 0 { millis(wall_cap) } else { deadline },
        }
    }

    /// Time left until the host stops waiting for this move (zero once it has passed), were
    /// the budget wall time (under the CPU clock a bot using one core has at least this). Keep
    /// a margin: the host's clock also counts the transport.
    pub fn time_left(&self) -> Duration {
        self.deadline.saturating_duration_since(Instant::now())
    }

    /// The instant the host stops waiting for this move.
    pub fn deadline(&self) -> Instant {
        self.deadline
    }

    /// Time since this move's request arrived.
    pub fn elapsed(&self) -> Duration {
        self.received.elapsed()
    }

    /// What was left of the seat's total clock when the request was sent (zero in a game
    /// without a clock).
    pub fn clock_remaining(&self) -> Duration {
        self.clock_remaining
    }

    /// True when moves are charged the CPU time of the bot's own processes (the arena's
    /// default clock), not wall time.
    pub fn cpu_clock(&self) -> bool {
        self.cpu
    }

    /// This move's budget: CPU time under the CPU clock, else wall time.
    pub fn budget(&self) -> Duration {
        self.budget
    }

    /// What is left of the seat's overage bank: the move may spend its budget plus this, and
    /// what it spends past the budget leaves the bank (zero when there is none).
    pub fn bank_remaining(&self) -> Duration {
        self.bank_remaining
    }

    /// The wall time after which the move is a timeout whatever its CPU time.
    pub fn wall_cap(&self) -> Duration {
        self.wall_cap
    }
}

/// A seat's result in a finished match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatchResult {
    /// The match was cut short.
    Unspecified,
    Win,
    Loss,
    Draw,
}

const RESULTS: [&str; 4] = ["RESULT_UNSPECIFIED", "RESULT_WIN", "RESULT_LOSS", "RESULT_DRAW"];

impl MatchResult {
    fn from_wire(n: i32) -> MatchResult {
        match n {
            1 => MatchResult::Win,
            2 => MatchResult::Loss,
            3 => MatchResult::Draw,
            _ => MatchResult::Unspecified,
        }
    }
}

/// Handed to a player's `end` when its seat closes.
#[derive(Debug)]
pub struct Outcome<'a, S> {
    pub result: MatchResult,
    /// The seat's score in the game's own unit.
    pub score: f64,
    /// The seat's state after the final observation (dynamite and the auction send one).
    pub state: &'a S,
}

/// The panic payload of [`invalid_answer`].
#[derive(Debug)]
pub struct InvalidAnswer(pub String);

/// Gives up the current move as an invalid answer (`BOT_ERROR_KIND_INVALID_ANSWER`, charged
/// as garbage) instead of a move: call it from a player's move method when it has nothing
/// sensible to return. Unlike any other panic it is not reported with a backtrace.
pub fn invalid_answer(message: impl Into<String>) -> ! {
    panic::panic_any(InvalidAnswer(message.into()))
}

/// One open seat: turns observations into the player's state and its answer into an action.
pub(crate) trait Seat {
    /// The game's name: the observation case this seat reads.
    fn game(&self) -> &str;
    /// Applies the observation, asks the player, and appends the action's JSON member
    /// (`"dynamite":{...}`) to `out`; `Err` is an answer the kit cannot send as a move.
    fn act(&mut self, step: i64, obs: &Value, clock: Clock, out: &mut String) -> Result<(), String>;
    /// Applies the final observation, if any, and calls the player's `end`.
    fn end(&mut self, result: MatchResult, score: f64, obs: Option<&Value>);
}

// ------------------------------------------------------------------------------------------
// Panics

thread_local! {
    /// The report of the last panic on this thread, written by the kit's panic hook.
    static LAST_PANIC: RefCell<Option<(String, String)>> = const { RefCell::new(None) };
}

static HOOK: Once = Once::new();

fn payload_text(p: &(dyn Any + Send)) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        (*s).to_owned()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else if let Some(InvalidAnswer(s)) = p.downcast_ref::<InvalidAnswer>() {
        s.clone()
    } else {
        "Box<dyn Any>".to_owned()
    }
}

/// Frame names of the panic machinery above the user's code, and of the kit below it.
fn machinery(name: &str) -> bool {
    const PREFIXES: [&str; 10] =
        ["std::", "core::", "alloc::", "<std::", "<core::", "<alloc::", "rust_begin_unwind", "__rust", "arena::", "<arena::"];
    PREFIXES.iter().any(|p| name.starts_with(p))
}

/// The backtrace's frames from the user's code: the panic machinery above it and the kit
/// below it are cut. Falls back to the whole backtrace when no frame is left.
fn user_frames(bt: &str) -> String {
    let mut frames: Vec<(String, String)> = Vec::new(); // (name, full text)
    for line in bt.lines() {
        let t = line.trim_start();
        let header = t.split_once(": ").filter(|(n, _)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
        match header {
            Some((_, name)) => frames.push((name.to_owned(), format!("{line}\n"))),
            None => {
                if let Some(f) = frames.last_mut() {
                    f.1.push_str(line);
                    f.1.push('\n');
                }
            }
        }
    }
    let start = frames.iter().position(|(n, _)| !machinery(n));
    let mut out = String::new();
    if let Some(start) = start {
        for (name, text) in frames.iter().skip(start).take(40) {
            if machinery(name) {
                break;
            }
            out.push_str(text);
        }
    }
    if out.is_empty() {
        bt.to_owned()
    } else {
        out
    }
}

fn install_hook() {
    HOOK.call_once(|| {
        panic::set_hook(Box::new(|info| {
            if info.payload().is::<InvalidAnswer>() {
                return;
            }
            let msg = payload_text(info.payload());
            let loc = info.location().map(|l| format!("{}:{}:{}", l.file(), l.line(), l.column())).unwrap_or_default();
            let bt = std::backtrace::Backtrace::force_capture().to_string();
            let thread = std::thread::current();
            let trace = format!(
                "thread '{}' panicked at {loc}:\n{msg}\nstack backtrace:\n{}",
                thread.name().unwrap_or("<unnamed>"),
                user_frames(&bt)
            );
            let _ = io::stderr().write_all(trace.as_bytes());
            LAST_PANIC.with(|c| *c.borrow_mut() = Some((format!("panic at {loc}: {msg}"), trace)));
        }));
    });
}

/// `s` cut to at most `n` bytes (on a character boundary), keeping its head and tail.
fn cut(s: &str, n: usize) -> String {
    if s.len() <= n {
        return s.to_owned();
    }
    let mut head = n / 2;
    while !s.is_char_boundary(head) {
        head -= 1;
    }
    let mut tail = s.len() - n / 2;
    while !s.is_char_boundary(tail) {
        tail += 1;
    }
    format!("{}\n[... {} bytes cut by the kit ...]\n{}", &s[..head], tail - head, &s[tail..])
}

/// One line, at most `n` bytes.
fn one_line(s: &str, n: usize) -> String {
    let line = s.replace(['\n', '\r'], " ");
    if line.len() <= n {
        return line;
    }
    let mut end = n - 3;
    while !line.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}...", &line[..end])
}

/// How a call into the player's code failed.
enum Failure {
    Invalid(String),
    /// (message, traceback)
    Panic(String, String),
}

fn failure_of(payload: Box<dyn Any + Send>) -> Failure {
    if let Some(InvalidAnswer(msg)) = payload.downcast_ref::<InvalidAnswer>() {
        return Failure::Invalid(msg.clone());
    }
    let text = payload_text(&*payload);
    match LAST_PANIC.with(|c| c.borrow_mut().take()) {
        Some((msg, trace)) => Failure::Panic(msg, trace),
        None => Failure::Panic(format!("panic: {text}"), String::new()),
    }
}

fn guarded<T>(f: impl FnOnce() -> T) -> Result<T, Failure> {
    LAST_PANIC.with(|c| *c.borrow_mut() = None);
    panic::catch_unwind(AssertUnwindSafe(f)).map_err(failure_of)
}

// ------------------------------------------------------------------------------------------
// The line loop

fn log(text: &str) {
    let _ = io::stderr().write_all(text.as_bytes());
}

struct Server {
    bot: Bot,
    seats: HashMap<(String, i32), Box<dyn Seat>>,
    line_no: u64,
}

const BOT_ERROR_KINDS: [&str; 3] = ["BOT_ERROR_KIND_UNSPECIFIED", "BOT_ERROR_KIND_EXCEPTION", "BOT_ERROR_KIND_INVALID_ANSWER"];

fn write_error(out: &mut String, kind: usize, message: &str, traceback: &str) {
    out.push_str("\"error\":{\"kind\":");
    json::write_str(out, BOT_ERROR_KINDS[kind]);
    out.push_str(",\"message\":");
    json::write_str(out, &one_line(message, 1000));
    if !traceback.is_empty() {
        out.push_str(",\"traceback\":");
        json::write_str(out, &cut(traceback, 8 << 10));
    }
    out.push('}');
}

/// The member of a message that holds game `game`'s setup or observation (the oneof case is
/// named by the game).
fn game_member<'v>(msg: &'v Value, game: &str) -> Option<&'v Value> {
    msg.field(game).filter(|v| matches!(v, Value::Object(_)))
}

/// The key of another game's message in `msg`, for an error message: the requests' common
/// fields are scalars and lists, so an object member is a oneof case.
fn other_case<'v>(msg: &'v Value, game: &str) -> Option<&'v str> {
    msg.members().iter().find(|(k, v)| k != game && matches!(v, Value::Object(_))).map(|(k, _)| k.as_str())
}

impl Server {
    fn handle(&mut self, line: &[u8], now: Instant, out: &mut String) {
        let text = match std::str::from_utf8(line) {
            Ok(t) => t.trim_end_matches(['\n', '\r']),
            Err(e) => return self.malformed(&format!("is not UTF-8 ({e})"), out),
        };
        let req = match json::parse(text) {
            Ok(v @ Value::Object(_)) => v,
            Ok(_) => return self.malformed("is not a JSON object", out),
            Err(e) => return self.malformed(&format!("is not JSON: {e}"), out),
        };
        if let Some(act) = req.field("act") {
            self.act(act, now, out)
        } else if let Some(start) = req.field("start") {
            self.start(start, out)
        } else if let Some(end) = req.field("end") {
            self.end(end, out)
        } else if req.field("describe").is_some() {
            self.describe(out)
        } else {
            let keys: Vec<&str> = req.members().iter().map(|(k, _)| k.as_str()).collect();
            log(&format!("arena: stdin line {} is no call this kit knows (keys {keys:?}); answered {{}}\n", self.line_no));
            out.push_str("{}");
        }
    }

    /// A line that is not a request at all: the bridge never sends one. Answered (every line
    /// gets one answer) with an error an ActResponse reader understands.
    fn malformed(&self, why: &str, out: &mut String) {
        let msg = format!("arena kit: stdin line {} {why}", self.line_no);
        log(&format!("{msg}\n"));
        out.push('{');
        write_error(out, 2, &msg, "");
        out.push('}');
    }

    fn describe(&self, out: &mut String) {
        let b = &self.bot;
        out.push_str("{\"name\":");
        json::write_str(out, b.name);
        for (key, v) in [("author", b.author), ("version", b.version)] {
            if !v.is_empty() {
                let _ = write!(out, ",\"{key}\":");
                json::write_str(out, v);
            }
        }
        out.push_str(",\"games\":[");
        for (i, g) in b.games.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            json::write_str(out, &g.name);
        }
        out.push_str("],\"sdk\":");
        json::write_str(out, SDK);
        out.push('}');
    }

    fn start(&mut self, req: &Value, out: &mut String) {
        let game = req.field_str("game");
        let info = SeatInfo {
            match_id: req.field_str("matchId").to_owned(),
            index: req.field_i32("seat"),
            players: req.field_strings("players"),
            deadline: millis(req.field_i64("deadlineMs")),
            clock: millis(req.field_i64("clockMs")),
        };
        let refuse = |out: &mut String, msg: &str| {
            let first = msg.lines().next().unwrap_or("");
            log(&format!("arena: refused seat {} of match {:?}: {first}\n", info.index, info.match_id));
            out.push_str("{\"error\":");
            json::write_str(out, &cut(msg, 3000));
            out.push('}');
        };
        let Some(entry) = self.bot.games.iter_mut().find(|g| g.name == game) else {
            let plays: Vec<&str> = self.bot.games.iter().map(|g| g.name.as_str()).collect();
            let msg = format!(
                "bot {:?} does not play {game} (it plays {}; a bot plays any game as JSON with arena::any::play)",
                self.bot.name,
                if plays.is_empty() { "nothing".to_owned() } else { plays.join(", ") }
            );
            return refuse(out, &msg);
        };
        let empty = Value::Object(Vec::new());
        let setup = match (game_member(req, game), other_case(req, game)) {
            (Some(s), _) => s,
            (None, Some(g)) => return refuse(out, &format!("{game} seat opened with a {g} setup")),
            (None, None) => &empty,
        };
        let key = (info.match_id.clone(), info.index);
        match guarded(|| (entry.open)(info.clone(), setup)) {
            Ok(seat) => {
                self.seats.insert(key, seat);
                out.push_str("{}");
            }
            Err(Failure::Invalid(msg)) => refuse(out, &msg),
            Err(Failure::Panic(msg, trace)) => refuse(out, &format!("{msg}\n{trace}")),
        }
    }

    fn act(&mut self, req: &Value, now: Instant, out: &mut String) {
        let step = req.field_i64("step");
        let match_id = req.field_str("matchId");
        let seat_no = req.field_i32("seat");
        let _ = write!(out, "{{\"step\":\"{step}\",");
        let mark = out.len();
        let Some(seat) = self.seats.get_mut(&(match_id.to_owned(), seat_no)) else {
            write_error(out, 2, &format!("no open seat {seat_no} in match {match_id:?}"), "");
            out.push('}');
            return;
        };
        let game = seat.game();
        let Some(obs) = game_member(req, game) else {
            let got = other_case(req, game).unwrap_or("none");
            write_error(out, 2, &format!("expected a {game} observation, got {got}"), "");
            out.push('}');
            return;
        };
        let clock = Clock::of_request(now, req);
        let result = guarded(|| seat.act(step, obs, clock, out));
        let failure = match result {
            Ok(Ok(())) => None,
            Ok(Err(msg)) => Some(Failure::Invalid(msg)),
            Err(f) => Some(f),
        };
        if let Some(f) = failure {
            out.truncate(mark);
            match f {
                Failure::Invalid(msg) => {
                    log(&format!("arena: invalid answer in match {match_id} seat {seat_no} step {step}: {msg}\n"));
                    write_error(out, 2, &msg, "");
                }
                Failure::Panic(msg, trace) => {
                    log(&format!("arena: the bot panicked in match {match_id} seat {seat_no} step {step}\n"));
                    write_error(out, 1, &msg, &trace);
                }
            }
        }
        out.push('}');
    }

    fn end(&mut self, req: &Value, out: &mut String) {
        out.push_str("{}");
        let key = (req.field_str("matchId").to_owned(), req.field_i32("seat"));
        let Some(mut seat) = self.seats.remove(&key) else { return };
        let result = MatchResult::from_wire(req.field_enum("result", &RESULTS));
        let score = req.field_f64("score");
        let obs = game_member(req, seat.game());
        if guarded(|| seat.end(result, score, obs)).is_err() {
            log(&format!("arena: the end of match {} seat {} panicked (answered {{}} all the same)\n", key.0, key.1));
        }
    }
}

/// Plays `bot` over any line source and sink: one answer line, flushed, for every input line,
/// until the input ends. [`serve`] calls it with the process's stdin and stdout; tests can
/// call it with a byte slice and a `Vec<u8>`.
pub fn run<R: BufRead, W: Write>(bot: Bot, mut input: R, mut output: W) -> io::Result<()> {
    install_hook();
    let mut server = Server { bot, seats: HashMap::new(), line_no: 0 };
    let mut line = Vec::with_capacity(4096);
    let mut out = String::with_capacity(4096);
    loop {
        line.clear();
        if input.read_until(b'\n', &mut line)? == 0 {
            return output.flush();
        }
        let now = Instant::now();
        server.line_no += 1;
        out.clear();
        server.handle(&line, now, &mut out);
        out.push('\n');
        output.write_all(out.as_bytes())?;
        output.flush()?;
    }
}

#[cfg(unix)]
mod stdio {
    use std::fs::File;
    use std::io;
    use std::os::fd::{AsFd, AsRawFd, OwnedFd};

    extern "C" {
        fn dup2(old: i32, new: i32) -> i32;
    }

    /// Takes the process's real stdin and stdout for the protocol: returns private copies of
    /// them, then points fd 1 at stderr (so `println!` lands in the log) and fd 0 at
    /// /dev/null (so nothing else can eat a request).
    pub fn take() -> io::Result<(File, File)> {
        io::Write::flush(&mut io::stdout())?;
        let stdin: OwnedFd = io::stdin().as_fd().try_clone_to_owned()?;
        let stdout: OwnedFd = io::stdout().as_fd().try_clone_to_owned()?;
        let null = File::open("/dev/null")?;
        // SAFETY: dup2 on descriptors this process owns; fds 0 and 1 stay open throughout.
        unsafe {
            if dup2(io::stderr().as_raw_fd(), 1) < 0 || dup2(null.as_raw_fd(), 0) < 0 {
                return Err(io::Error::last_os_error());
            }
        }
        Ok((File::from(stdin), File::from(stdout)))
    }
}

/// Serves `bot` on stdin and stdout until stdin ends, then exits the process (status 0; 1
/// when the pipes fail). Call it from `main`.
pub fn serve(bot: Bot) -> ! {
    if std::env::var_os("ARENA_STDIO").is_none() && io::IsTerminal::is_terminal(&io::stdin()) {
        log(&format!(
            "{name}: an arena bot (kit {SDK}). The arena plays it with, for example:\n    \
             bin/arena play {game} <this bot's folder> <a house bot under bots/{game}/cmd>\n\
             It reads one JSON request per line on stdin; try\n    \
             printf '%s\\n' '{{\"describe\":{{}}}}' | <this program>\n",
            name = bot.name,
            game = bot.games.first().map_or("<game>", |g| g.name.as_str()),
        ));
    }
    #[cfg(unix)]
    let result = stdio::take().and_then(|(stdin, stdout)| {
        run(bot, io::BufReader::with_capacity(64 << 10, stdin), io::BufWriter::with_capacity(16 << 10, stdout))
    });
    #[cfg(not(unix))]
    let result = run(bot, io::stdin().lock(), io::BufWriter::new(io::stdout().lock()));
    match result {
        Ok(()) => std::process::exit(0),
        Err(e) => {
            log(&format!("arena: stdio failed: {e}\n"));
            std::process::exit(1)
        }
    }
}
