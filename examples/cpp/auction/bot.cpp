// collector: races for the artist it can complete soonest and bids only on that artist's works,
// spreading its money over the works it still needs.
#include <cmath>
#include <limits>
#include <string>

#include "arena.hpp"

using namespace arena::auction;

namespace {

class Collector : public Player {
 public:
  double bid(const State& s) override {
    const std::string& me = s.setup.own_name;
    // Re-choose every round: the artist whose last needed work comes up soonest from now.
    std::string target;
    std::size_t soonest = std::numeric_limits<std::size_t>::max();
    const auto& items = s.setup.auction_items;
    for (int a = 0; a < s.setup.artists_num; ++a) {
      std::string artist = "t" + std::to_string(a);
      int need = s.needs(me, artist);
      for (std::size_t i = static_cast<std::size_t>(s.item_index); i < items.size() && need > 0; ++i)
        if (items[i] == artist && --need == 0 && i < soonest) {
          soonest = i;
          target = artist;
        }
    }
    if (target.empty() || s.item != target) return 0;
    int need = s.needs(me, target);
    if (need <= 0 || s.own_money <= 0) return 0;
    return std::floor(static_cast<double>(s.own_money) / need);
  }
};

}  // namespace

int main() {
  return arena::serve({.name = "collector", .author = "arena examples", .version = "0.1.0",
                       .games = {play<Collector>()}});
}
