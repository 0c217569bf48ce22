//! collector: races for the artist whose works come up soonest, spreading its money over the
//! works it still needs, and outbids a rival about to complete a set when it can afford to.

use arena::auction::{self, Setup, State};

#[derive(Default)]
struct Collector {
    target: String,
}

impl auction::Player for Collector {
    fn start(&mut self, setup: &Setup) {
        // The artist whose required_count-th work comes up first.
        let need = setup.required_count.max(1) as usize;
        let mut artists: Vec<&String> = setup.auction_items.iter().collect();
        artists.sort();
        artists.dedup();
        let done_at = |artist: &str| {
            setup.auction_items.iter().enumerate().filter(|(_, a)| *a == artist).nth(need - 1).map_or(usize::MAX, |(i, _)| i)
        };
        self.target = artists.into_iter().min_by_key(|a| done_at(a)).cloned().unwrap_or_default();
    }

    fn bid(&mut self, state: &State) -> i64 {
        let me = &state.setup.own_name;
        if state.item == self.target {
            return state.own_money / state.needs(me, &self.target).max(1) as i64;
        }
        // A rival one work short of a set of this artist: outbid all it has, if we can.
        let threat = state
            .wealth_table
            .iter()
            .filter(|(name, &money)| *name != me && money >= 0 && state.needs(name, &state.item) == 1)
            .map(|(_, &money)| money)
            .max();
        match threat {
            Some(money) if money < state.own_money => money + 1,
            _ => 0,
        }
    }
}

pub fn bot() -> arena::Bot {
    arena::Bot {
        name: "collector",
        author: "arena examples",
        version: "0.1.0",
        games: vec![auction::play(Collector::default)],
    }
}

fn main() {
    arena::serve(bot());
}
