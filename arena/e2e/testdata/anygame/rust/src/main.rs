//! A dynamite bot with no dynamite code of the kit's: it reads the observation and writes the
//! action as JSON (arena::any). Dynamite while more than 97 are left, then rock, paper,
//! scissors by round.
use arena::any::{self, State};
use arena::json::Value;

#[derive(Default)]
struct Cycler;

impl any::Player for Cycler {
    fn act(&mut self, s: &State) -> Value {
        let o = &s.observation;
        let throw = if o.field_i32("ownDynamiteLeft") > 97 { "DYNAMITE" } else { ["ROCK", "PAPER", "SCISSORS"][(o.field_i32("round") % 3) as usize] };
        Value::object([("move", Value::from(format!("DYNAMITE_MOVE_{throw}")))])
    }
}

fn main() {
    arena::serve(arena::Bot { name: "any-rust", author: "arena e2e", version: "", games: vec![any::play("dynamite", Cycler::default)] });
}
