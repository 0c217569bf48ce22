// finisher: wins or knocks out a hand when it can, and otherwise avoids leaving a hand the
// opponent can knock out on its next move.
#include <vector>

#include "arena.hpp"

using namespace arena::finger;

namespace {

struct Hands {
  int own[2];
  int opp[2];
};

// after is the position once m is played (m legal).
Hands after(const State& s, const Move& m) {
  Hands h{{s.own_left, s.own_right}, {s.opponent_left, s.opponent_right}};
  if (m.is_switch()) {
    h.own[0] = m.left;
    h.own[1] = m.right;
  } else {
    int& target = h.opp[m.to_hand()];
    target += h.own[m.from_hand()];
    if (target >= 5) target = 0;
  }
  return h;
}

// threatened: the opponent, to move in h, can knock out one of my hands.
bool threatened(const Hands& h) {
  for (int from = 0; from < 2; ++from)
    for (int to = 0; to < 2; ++to)
      if (h.opp[from] > 0 && h.own[to] > 0 && h.own[to] + h.opp[from] >= 5) return true;
  return false;
}

class Finisher : public Player {
 public:
  Move move(const State& s) override {
    std::vector<Move> legal = s.legal_moves();
    if (legal.empty()) return LeftToLeft;  // cannot happen while the game runs
    const Move* best = nullptr;
    int best_score = -1;
    for (const Move& m : legal) {
      Hands h = after(s, m);
      int knocked = (s.opponent_left > 0 && h.opp[0] == 0) + (s.opponent_right > 0 && h.opp[1] == 0);
      int score;
      if (h.opp[0] == 0 && h.opp[1] == 0) score = 100;  // the opponent has no hand left: won
      else score = (threatened(h) ? 0 : 10) + 5 * knocked + (m.is_hit() ? 1 : 0);
      if (score > best_score) {
        best_score = score;
        best = &m;
      }
    }
    return *best;
  }
};

}  // namespace

int main() {
  return arena::serve({.name = "finisher", .author = "arena examples", .version = "0.1.0",
                       .games = {play<Finisher>()}});
}
