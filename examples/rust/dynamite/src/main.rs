//! counter: beats the opponent's favourite recent throw (or, against a bot that answers our
//! previous throw, what it will answer), spends dynamite on rolled-over points, and throws
//! water at an opponent who dynamites every high stake.

use arena::dynamite::{self, Move, State};

/// Rounds of the opponent's past looked at to find its favourite throw.
const WINDOW: usize = 30;

#[derive(Default)]
struct Counter {
    /// A tiny xorshift for the rounds with nothing to go on (never seeded from the clock:
    /// a replay plays the same).
    rng: u64,
}

impl Counter {
    fn random_plain(&mut self) -> Move {
        if self.rng == 0 {
            self.rng = 0x9E37_79B9_7F4A_7C15;
        }
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 7;
        self.rng ^= self.rng << 17;
        [Move::Rock, Move::Paper, Move::Scissors][(self.rng % 3) as usize]
    }
}

/// The stake each past round was played for (1 plus the draws before it).
fn stakes(state: &State) -> Vec<i32> {
    let mut stake = 1;
    state
        .rounds
        .iter()
        .map(|r| {
            let s = stake;
            stake = if r.own == r.opponent { stake + 1 } else { 1 };
            s
        })
        .collect()
}

/// How often `pick` happened among the last 12 rounds `filter` keeps; None when it kept none.
fn rate(state: &State, filter: impl Fn(usize) -> bool, pick: impl Fn(usize) -> bool) -> Option<f64> {
    let kept: Vec<usize> = (0..state.rounds.len()).filter(|&i| filter(i)).collect();
    let recent = &kept[kept.len().saturating_sub(12)..];
    (!recent.is_empty()).then(|| recent.iter().filter(|&&i| pick(i)).count() as f64 / recent.len() as f64)
}

impl dynamite::Player for Counter {
    fn start(&mut self, setup: &dynamite::Setup) {
        self.rng = 0x9E37_79B9_7F4A_7C15 ^ setup.seat.index as u64;
    }

    fn r#move(&mut self, state: &State) -> Move {
        let rounds = &state.rounds;
        let stakes = stakes(state);
        // Does the opponent dynamite the rounds worth 2 or more?
        let their_dynamite = rate(state, |i| stakes[i] >= 2, |i| rounds[i].opponent == Move::Dynamite);
        if state.stake >= 2 && state.opponent_dynamite_left > 0 && their_dynamite.is_some_and(|r| r > 0.6) {
            return Move::Water;
        }
        // Spend dynamite on rolled-over points, unless the opponent waters it.
        let watered = rate(state, |i| rounds[i].own == Move::Dynamite, |i| rounds[i].opponent == Move::Water);
        if state.stake >= 2 && state.own_dynamite_left > 0 && watered.is_none_or(|r| r < 0.4) {
            return Move::Dynamite;
        }
        // Does the opponent throw what beats our previous throw? Then beat that.
        let pairs: Vec<_> = rounds.windows(2).rev().take(WINDOW).collect();
        let follows = pairs.iter().filter(|w| w[1].opponent == w[0].own.beaten_by()).count();
        if let (true, Some(last)) = (pairs.len() >= 5 && follows * 2 > pairs.len(), rounds.last()) {
            return last.own.beaten_by().beaten_by();
        }
        let mut counts = [0usize; 5];
        for r in &rounds[rounds.len().saturating_sub(WINDOW)..] {
            counts[r.opponent as usize] += 1;
        }
        // The opponent's favourite plain throw, if it clearly has one.
        let plain = [Move::Rock, Move::Paper, Move::Scissors];
        let favourite = plain.iter().copied().max_by_key(|&m| counts[m as usize]).unwrap_or(Move::Rock);
        let seen: usize = plain.iter().map(|&m| counts[m as usize]).sum();
        if seen > 0 && counts[favourite as usize] * 2 > seen {
            favourite.beaten_by()
        } else {
            self.random_plain()
        }
    }
}

pub fn bot() -> arena::Bot {
    arena::Bot {
        name: "counter",
        author: "arena examples",
        version: "0.1.0",
        games: vec![dynamite::play(Counter::default)],
    }
}

fn main() {
    arena::serve(bot());
}
