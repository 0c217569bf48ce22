// frequency: predicts the opponent's next throw with whichever simple rule has been right most
// often lately (its favourite throw, its last throw, or what beats my last throw), plays what
// beats it, spends dynamite on high stakes and stops when the opponent answers it with water.
#include <array>
#include <cstddef>
#include <vector>

#include "arena.hpp"

using namespace arena::dynamite;

namespace {

// The throw that beats m among R, P, S (water for dynamite).
Move beating(Move m) {
  switch (m) {
    case Move::Rock: return Move::Paper;
    case Move::Paper: return Move::Scissors;
    case Move::Scissors: return Move::Rock;
    case Move::Dynamite: return Move::Water;
    default: return Move::Rock;  // water loses to R, P and S
  }
}

constexpr std::size_t kWindow = 60;

// predict is rule r's guess of the opponent's throw in round i (0-based) from rounds[0, i).
Move predict(int r, const std::vector<Round>& rounds, std::size_t i) {
  if (i == 0) return Move::Rock;
  switch (r) {
    case 0: {  // its favourite R, P or S lately
      std::array<int, 6> seen{};
      for (std::size_t k = i > kWindow ? i - kWindow : 0; k < i; ++k) seen[static_cast<int>(rounds[k].opponent)]++;
      Move fav = Move::Rock;
      for (Move m : {Move::Paper, Move::Scissors})
        if (seen[static_cast<int>(m)] > seen[static_cast<int>(fav)]) fav = m;
      return fav;
    }
    case 1: return rounds[i - 1].opponent;           // it repeats itself
    default: return beating(rounds[i - 1].own);      // it beats my last throw
  }
}

class Frequency : public Player {
 public:
  Move move(const State& s) override {
    // state.rounds is the whole match so far, rebuilt by the kit.
    const std::vector<Round>& rounds = s.rounds;
    std::size_t n = rounds.size(), from = n > kWindow ? n - kWindow : 0;
    int dynamite_thrown = 0, watered = 0, their_dynamite = 0;
    for (std::size_t i = from; i < n; ++i) {
      if (rounds[i].opponent == Move::Dynamite) ++their_dynamite;
      if (rounds[i].own == Move::Dynamite) {
        ++dynamite_thrown;
        if (rounds[i].opponent == Move::Water) ++watered;
      }
    }
    bool water_wary = dynamite_thrown >= 4 && watered * 3 >= dynamite_thrown;
    if (s.own_dynamite_left > 0 && s.stake >= 2 && !water_wary) return Move::Dynamite;
    // Against an opponent that spends its dynamite on high stakes, a balloon now and then.
    if (s.opponent_dynamite_left > 0 && s.stake >= 3 && their_dynamite * 4 > static_cast<int>(n - from))
      return Move::Water;
    int best = 0, best_hits = -1;
    for (int r = 0; r < 3; ++r) {
      int hits = 0;
      for (std::size_t i = from; i < n; ++i) hits += predict(r, rounds, i) == rounds[i].opponent;
      if (hits > best_hits) best = r, best_hits = hits;
    }
    return beating(predict(best, rounds, n));
  }
};

}  // namespace

int main() {
  return arena::serve({.name = "frequency", .author = "arena examples", .version = "0.1.0",
                       .games = {play<Frequency>()}});
}
