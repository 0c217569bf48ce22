// frequency: beats the opponent's favourite recent throw, spends dynamite on high stakes and
// stops when the opponent answers it with water balloons.
#include <array>

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

class Frequency : public Player {
 public:
  Move move(const State& s) override {
    // state.rounds is the whole match so far, rebuilt by the kit: look at the last 60 rounds.
    const auto& rounds = s.rounds;
    std::size_t from = rounds.size() > 60 ? rounds.size() - 60 : 0;
    std::array<int, 6> seen{};
    int dynamite_thrown = 0, watered = 0;
    for (std::size_t i = from; i < rounds.size(); ++i) {
      seen[static_cast<int>(rounds[i].opponent)]++;
      if (rounds[i].own == Move::Dynamite) {
        ++dynamite_thrown;
        if (rounds[i].opponent == Move::Water) ++watered;
      }
    }
    bool water_wary = dynamite_thrown >= 4 && watered * 3 >= dynamite_thrown;
    if (s.own_dynamite_left > 0 && s.stake >= 2 && !water_wary) return Move::Dynamite;
    // Against an opponent that spends its dynamite on high stakes, a balloon now and then.
    if (s.opponent_dynamite_left > 0 && s.stake >= 3 && seen[static_cast<int>(Move::Dynamite)] * 4 > static_cast<int>(rounds.size() - from))
      return Move::Water;
    if (rounds.size() == from) return Move::Rock;
    Move favourite = Move::Rock;
    for (Move m : {Move::Rock, Move::Paper, Move::Scissors})
      if (seen[static_cast<int>(m)] > seen[static_cast<int>(favourite)]) favourite = m;
    return beating(favourite);
  }
};

}  // namespace

int main() {
  return arena::serve({.name = "frequency", .author = "arena examples", .version = "0.1.0",
                       .games = {play<Frequency>()}});
}
