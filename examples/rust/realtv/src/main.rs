//! Reckoner: reckons today's trial. When the island would fail it even with this instance,
//! or would fail without it while the bounty is worth sharing, it betrays (votes for itself)
//! and takes a share of the bounty; otherwise it stays loyal and votes out the weakest other
//! player, so that the strong pass their trials.

use arena::realtv::{self, weakest, Context, Vote, DIFFICULTY_A, DIFFICULTY_B, SCORE_FOR_ALL_TRAITORS, SCORE_FOR_TRIAL};

#[derive(Default)]
struct Reckoner;

/// Whether n players of total strength `sum` pass a trial.
fn passes(n: usize, sum: i32) -> bool {
    sum >= DIFFICULTY_A * n as i32 + DIFFICULTY_B
}

impl realtv::Player for Reckoner {
    fn vote_for_elimination(&mut self, ctx: &Context) -> Vote {
        let Some(me) = ctx.me() else { return weakest(ctx.others()).into() };
        let n = ctx.active_players.len();
        let sum: i32 = ctx.active_players.values().map(|p| p.strength).sum();
        // Betraying pays the bounty, shared with every betrayer of the island, if the rest fail.
        let share = SCORE_FOR_ALL_TRAITORS / (ctx.betrayers.len() as i32 + 1);
        let doomed = !passes(n, sum);
        let rest_fail = n > 1 && !passes(n - 1, sum - me.strength);
        if doomed || (rest_fail && share > 4 * SCORE_FOR_TRIAL) {
            return Vote::from(me); // a vote for oneself is the seed's betrayal
        }
        weakest(ctx.others()).into()
    }

    fn vote_for_tie(&mut self, ctx: &Context) -> Vote {
        let others = ctx.current_ties.values().filter(|p| p.id != ctx.own_id);
        weakest(others).or_else(|| weakest(ctx.current_ties.values())).into()
    }
}

pub fn bot() -> arena::Bot {
    arena::Bot {
        name: "Reckoner",
        author: "arena examples",
        version: "0.1.0",
        games: vec![realtv::play(|| Reckoner)],
    }
}

fn main() {
    arena::serve(bot());
}
