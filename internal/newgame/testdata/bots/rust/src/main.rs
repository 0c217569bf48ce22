//! A coin bot with the kit's generic path (arena::any): tails on even rounds, heads on odd.
use arena::any::{self, State};
use arena::json::Value;

#[derive(Default)]
struct Alternate;

impl any::Player for Alternate {
    fn act(&mut self, s: &State) -> Value {
        let side = if s.observation.field_i32("round") % 2 == 0 { "TAILS" } else { "HEADS" };
        Value::object([("call", Value::from(format!("COIN_SIDE_{side}")))])
    }
}

fn main() {
    arena::serve(arena::Bot { name: "coin-rust", author: "newgame test", version: "", games: vec![any::play("coin", Alternate::default)] });
}
