// Loyal: never betrays; votes out the weakest other player (and in a tie, the weakest of the
// tied), keeping the strong ones that pass the trials.
#include "arena.hpp"

using namespace arena::realtv;

namespace {

class Loyal : public Player {
 public:
  Vote vote_for_elimination(const Context& c) override { return weakest(c.active_players, c.own_id); }

  Vote vote_for_tie(const Context& c) override {
    if (const PlayerContext* p = weakest(c.current_ties, c.own_id)) return p;
    return weakest(c.current_ties);  // only myself is tied: the vote is ignored anyway
  }
};

}  // namespace

int main() {
  // In realtv the name is the class name the other players see.
  return arena::serve({.name = "Loyal", .author = "arena examples", .version = "0.1.0",
                       .games = {play<Loyal>()}});
}
