//! lookahead: searches four moves ahead (its own, the reply, its own, the reply) and plays
//! the move that keeps the most hands alive; wins at once when it can.

use arena::finger::{self, Move, State, HITS};

/// A position from the side of the player to move.
#[derive(Clone, Copy)]
struct Pos {
    me: [i32; 2],
    them: [i32; 2],
}

impl Pos {
    fn legal(&self) -> Vec<Move> {
        let total = self.me[0] + self.me[1];
        let mut moves: Vec<Move> = HITS
            .iter()
            .copied()
            .filter(|h| {
                let (from, to) = h.hands().unwrap();
                self.me[from] > 0 && self.them[to] > 0
            })
            .collect();
        for left in 0..=5 {
            let right = total - left;
            if (0..=5).contains(&right) && [left, right] != self.me && [right, left] != self.me {
                moves.push(Move::Switch { left, right });
            }
        }
        moves
    }

    /// The position after `m`, from the opponent's side.
    fn after(&self, m: Move) -> Pos {
        let (mut me, mut them) = (self.me, self.them);
        match m {
            Move::Switch { left, right } => me = [left, right],
            hit => {
                let (from, to) = hit.hands().unwrap();
                them[to] += me[from];
                if them[to] >= 5 {
                    them[to] = 0;
                }
            }
        }
        Pos { me: them, them: me }
    }

    fn lost(&self) -> bool {
        self.me == [0, 0]
    }

    fn eval(&self) -> i32 {
        let alive = |h: [i32; 2]| h.iter().filter(|&&n| n > 0).count() as i32;
        10 * (alive(self.me) - alive(self.them))
    }
}

/// The value of `pos` for the player to move, `depth` moves ahead.
fn negamax(pos: Pos, depth: u32) -> i32 {
    if pos.lost() {
        return -1000 - depth as i32; // lose later rather than sooner
    }
    if depth == 0 {
        return pos.eval();
    }
    pos.legal().into_iter().map(|m| -negamax(pos.after(m), depth - 1)).max().unwrap_or(-1000)
}

#[derive(Default)]
struct Lookahead;

impl finger::Player for Lookahead {
    fn r#move(&mut self, state: &State) -> Move {
        let pos = Pos { me: [state.own_left, state.own_right], them: [state.opponent_left, state.opponent_right] };
        let mut best: Option<(i32, Move)> = None;
        for m in state.legal_moves() {
            let score = -negamax(pos.after(m), 3);
            if best.is_none_or(|(b, _)| score > b) {
                best = Some((score, m));
            }
        }
        // legal_moves is never empty while the game goes on (a switch of a live hand exists).
        best.map_or(Move::LeftToLeft, |(_, m)| m)
    }
}

pub fn bot() -> arena::Bot {
    arena::Bot {
        name: "lookahead",
        author: "arena examples",
        version: "0.1.0",
        games: vec![finger::play(|| Lookahead)],
    }
}

fn main() {
    arena::serve(bot());
}
