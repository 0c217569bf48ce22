//! Loyal: votes out the weakest other player, never itself (that is betrayal), so the
//! strong stay together and pass their trials.

use arena::realtv::{self, weakest, Context, Vote};

#[derive(Default)]
struct Loyal;

impl realtv::Player for Loyal {
    fn vote_for_elimination(&mut self, ctx: &Context) -> Vote {
        weakest(ctx.others()).into()
    }

    fn vote_for_tie(&mut self, ctx: &Context) -> Vote {
        let others = ctx.current_ties.values().filter(|p| p.id != ctx.own_id);
        weakest(others).or_else(|| weakest(ctx.current_ties.values())).into()
    }
}

pub fn bot() -> arena::Bot {
    arena::Bot {
        name: "Loyal",
        author: "arena examples",
        version: "0.1.0",
        games: vec![realtv::play(|| Loyal)],
    }
}

fn main() {
    arena::serve(bot());
}
