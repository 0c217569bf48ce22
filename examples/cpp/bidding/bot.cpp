// spreader: spreads its money over the rounds it still needs to win, and outbids a broke
// opponent by one dollar.
#include <algorithm>
#include <cstdint>

#include "arena.hpp"

using namespace arena::bidding;

namespace {

class Spreader : public Player {
 public:
  std::int64_t bid(const State& s) override {
    if (s.own_money == 0) return 0;
    std::int64_t share = s.own_money / std::max(1, s.places_to_win());
    std::int64_t cap = std::min<std::int64_t>(s.own_money, s.opponent_money + 1);
    return std::max<std::int64_t>(1, std::min(share, cap));
  }
};

}  // namespace

int main() {
  return arena::serve({.name = "spreader", .author = "arena examples", .version = "0.1.0",
                       .games = {play<Spreader>()}});
}
