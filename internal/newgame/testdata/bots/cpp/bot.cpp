// A coin bot with the kit's generic path (arena::any): tails on even rounds, heads on odd.
#include "arena.hpp"

struct Alternate : arena::any::Player {
  arena::json::Value act(const arena::any::State& s) override {
    bool even = s.observation["round"].as_int64() % 2 == 0;
    return arena::json::Value::object({{"call", even ? "COIN_SIDE_TAILS" : "COIN_SIDE_HEADS"}});
  }
};

int main() {
  return arena::serve({.name = "coin-cpp", .author = "newgame test", .games = {arena::any::play<Alternate>("coin")}});
}
