// A dynamite bot with no dynamite code of the kit's: it reads the observation and writes the
// action as JSON (arena::any). Dynamite while more than 97 are left, then rock, paper, scissors
// by round.
#include <string>

#include "arena.hpp"

struct Cycler : arena::any::Player {
  arena::json::Value act(const arena::any::State& s) override {
    static const char* const throws[] = {"ROCK", "PAPER", "SCISSORS"};
    const arena::json::Value& o = s.observation;
    std::string t = o["ownDynamiteLeft"].as_int64() > 97 ? "DYNAMITE" : throws[o["round"].as_int64() % 3];
    return arena::json::Value::object({{"move", "DYNAMITE_MOVE_" + t}});
  }
};

int main() {
  return arena::serve({.name = "any-cpp", .author = "arena e2e", .games = {arena::any::play<Cycler>("dynamite")}});
}
