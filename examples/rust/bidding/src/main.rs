//! spreader: spreads its money evenly over the rounds it still needs to win, and never pays
//! more than one dollar over what a nearly broke opponent can bid.

use arena::bidding::{self, State};

#[derive(Default)]
struct Spreader;

impl bidding::Player for Spreader {
    fn bid(&mut self, state: &State) -> i64 {
        if state.own_money == 0 {
            return 0;
        }
        let share = state.own_money / state.places_to_win().max(1) as i64;
        // Outbid a broke opponent by one dollar; never more than we have, never under 1.
        share.min(state.opponent_money + 1).min(state.own_money).max(1)
    }
}

pub fn bot() -> arena::Bot {
    arena::Bot {
        name: "spreader",
        author: "arena examples",
        version: "0.1.0",
        games: vec![bidding::play(|| Spreader)],
    }
}

fn main() {
    arena::serve(bot());
}
