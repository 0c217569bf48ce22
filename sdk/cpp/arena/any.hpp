// arena/any.hpp: any game, as JSON: the path for a game this kit has no header for (or a bot that
// wants the wire messages as they are). The player gets the game's setup and each observation as
// a json::Value (the request's "<game>" member, protojson names and all: docs/protocol.md
// section 8) and answers each move with the action as a JSON object, which the kit sends as the
// answer's "<game>" member. Seats, the clock, steps and errors are the kit's, as for the games.
//
//   struct Heads : arena::any::Player {
//     arena::json::Value act(const arena::any::State&) override {
//       return arena::json::Value::object({{"call", "HEADS"}});
//     }
//   };
//   int main() { return arena::serve({.name = "heads", .games = {arena::any::play<Heads>("coin")}}); }
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <type_traits>

#include "core.hpp"
#include "value.hpp"

namespace arena::any {

// Setup is how a seat of the game opened: the seat's facts, the game's name and its setup.
struct Setup : SeatInfo {
  std::string game;         // the game's registry name
  json::Value setup = json::Value::object();  // the game's setup message ({} when none came)
};

// State is what the player sees before a move; one object per seat, updated every move.
struct State : Clock {
  Setup setup;
  std::int64_t step = 0;                            // the move's step (the kit echoes it)
  json::Value observation = json::Value::object();  // this move's observation (in end(): the final one, if sent)
};

// Player: implement act(). start() and end() are optional hooks.
class Player {
 public:
  virtual ~Player() = default;
  // Called once when the match opens, before the first move.
  virtual void start(const Setup&) {}
  // The action for this move: a JSON object, the game's action message.
  virtual json::Value act(const State& state) = 0;
  // Called once when the match is over (also when it was cut short: result Unspecified).
  virtual void end(const Outcome<State>&) {}
};

namespace detail {

class Seat final : public arena::detail::PlayerSeat<Player, State> {
 public:
  Seat(std::unique_ptr<Player> p, const wire::StartRequest& r) : PlayerSeat(std::move(p), r) {
    Setup& s = state_.setup;
    s.game = r.game;
    if (const wire::Member* m = r.setup.of(r.game)) s.setup = json::Value::parse(m->json);
    player_->start(s);
  }

  void act(const wire::ActRequest& req, SteadyClock::time_point now, std::string& out) override {
    const std::string& game = state_.setup.game;
    state_.observation = json::Value::parse(arena::detail::observation_json(req, game));
    state_.step = req.step;
    state_.tick_(now, req);
    json::Value action = player_->act(state_);
    if (!action.is_object())
      throw InvalidAnswer("the " + game + " action must be a JSON object, not " + action.dump().substr(0, 200));
    out += ',';
    json::append_string(out, game);
    out += ':';
    action.append_to(out);
  }

  void end(const wire::EndRequest& req) override {
    if (const wire::Member* m = req.observation.of(state_.setup.game)) state_.observation = json::Value::parse(m->json);
    end_with(req);
  }
};

}  // namespace detail

// play makes the entry of the game named `game` for arena::serve; a new P (default-constructed)
// plays each match.
template <class P>
Game play(std::string game) {
  static_assert(std::is_base_of_v<Player, P>, "play<P>: P must derive from arena::any::Player");
  return arena::detail::entry<detail::Seat, P>(std::move(game));
}

// play with a factory: make() is called once per match.
inline Game play(std::string game, std::function<std::unique_ptr<Player>()> make, std::string name = "") {
  return arena::detail::entry<detail::Seat>(std::move(game), std::move(make), std::move(name));
}

}  // namespace arena::any
