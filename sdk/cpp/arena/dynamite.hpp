// arena/dynamite.hpp: rock, paper, scissors, dynamite and water balloons
// (rules: docs/rules/dynamite.md).
//
//   struct Rocky : arena::dynamite::Player {
//     arena::dynamite::Move move(const arena::dynamite::State& s) override {
//       return s.own_dynamite_left > 0 && s.stake > 2 ? Move::Dynamite : Move::Rock;
//     }
//   };
//   int main() { return arena::serve({.name = "rocky", .games = {arena::dynamite::play<Rocky>()}}); }
//
// A fresh player plays each match. state.rounds lists every round played so far, oldest first,
// from this player's side (own: its throw, opponent: the other's).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core.hpp"

namespace arena::dynamite {

inline constexpr std::string_view kGame = "dynamite";

// Move is a throw. Unspecified (or any other value) is not a move: answering it is invalid.
enum class Move : int { Unspecified = 0, Rock = 1, Paper = 2, Scissors = 3, Dynamite = 4, Water = 5 };

// The five legal throws.
inline constexpr std::array<Move, 5> kMoves = {Move::Rock, Move::Paper, Move::Scissors, Move::Dynamite,
                                               Move::Water};

// to_char is the seed's letter of a throw: 'R', 'P', 'S', 'D', 'W' ('?' for anything else).
constexpr char to_char(Move m) noexcept {
  switch (m) {
    case Move::Rock: return 'R';
    case Move::Paper: return 'P';
    case Move::Scissors: return 'S';
    case Move::Dynamite: return 'D';
    case Move::Water: return 'W';
    default: return '?';
  }
}

// from_char is the throw of a seed letter (Move::Unspecified for anything else).
constexpr Move from_char(char c) noexcept {
  switch (c) {
    case 'R': return Move::Rock;
    case 'P': return Move::Paper;
    case 'S': return Move::Scissors;
    case 'D': return Move::Dynamite;
    case 'W': return Move::Water;
    default: return Move::Unspecified;
  }
}

// Round is one played round from this player's side.
struct Round {
  Move own = Move::Unspecified;
  Move opponent = Move::Unspecified;
  friend bool operator==(const Round&, const Round&) = default;
};

// Setup is a dynamite match's fixed rules.
struct Setup : SeatInfo {
  int target_score = 0;         // points that win (1000)
  int max_rounds = 0;           // round cap (2500)
  int dynamite_per_player = 0;  // dynamite each side may throw (100)
};

// State is what the player sees before a round; one object per seat, updated in place.
struct State : Clock {
  Setup setup;
  int round = 0;              // the round about to be played, from 1
  std::vector<Round> rounds;  // rounds played so far, oldest first
  int own_score = 0;
  int opponent_score = 0;
  int own_dynamite_left = 0;
  int opponent_dynamite_left = 0;
  int stake = 1;  // what the coming round is worth: 1 plus the draws rolled over
};

// Player: implement move(). start() and end() are optional hooks.
class Player {
 public:
  virtual ~Player() = default;
  // Called once when the match opens, before the first move.
  virtual void start(const Setup&) {}
  // The throw for the coming round.
  virtual Move move(const State& state) = 0;
  // Called once when the match is over (also when it was cut short: result Unspecified).
  virtual void end(const Outcome<State>&) {}
};

namespace detail {

class Seat final : public arena::detail::PlayerSeat<Player, State> {
 public:
  Seat(std::unique_ptr<Player> p, const wire::StartRequest& r) : PlayerSeat(std::move(p), r) {
    Setup& s = state_.setup;
    const wire::DynamiteSetup w = arena::detail::setup<wire::DynamiteSetup>(r, kGame);
    s.target_score = w.target_score;
    s.max_rounds = w.max_rounds;
    s.dynamite_per_player = w.dynamite_per_player;
    state_.own_dynamite_left = state_.opponent_dynamite_left = s.dynamite_per_player;
    player_->start(s);
  }

  void act(const wire::ActRequest& req, SteadyClock::time_point now, std::string& out) override {
    observe(arena::detail::observation<wire::DynamiteObservation>(req, kGame));
    state_.tick_(now, req);
    Move m = player_->move(state_);
    int v = static_cast<int>(m);
    if (v < 1 || v > 5)
      throw InvalidAnswer("move() returned Move(" + std::to_string(v) +
                          "), not Rock, Paper, Scissors, Dynamite or Water");
    out += ",\"dynamite\":{\"move\":\"";
    out += wire::kDynamiteMove[static_cast<std::size_t>(v)];
    out += "\"}";
  }

  void end(const wire::EndRequest& req) override {
    if (auto o = arena::detail::final_observation<wire::DynamiteObservation>(req, kGame)) observe(*o);
    end_with(req);
  }

  const State& state() const { return state_; }

 private:
  void observe(const wire::DynamiteObservation& o) {
    State& st = state_;
    // The previous round, once: a repeated request must not append it twice.
    if (o.round > static_cast<int>(st.rounds.size()) + 1 && o.last_own != 0)
      st.rounds.push_back(Round{static_cast<Move>(o.last_own), static_cast<Move>(o.last_opponent)});
    st.round = o.round;
    st.own_score = o.own_score;
    st.opponent_score = o.opponent_score;
    st.own_dynamite_left = o.own_dynamite_left;
    st.opponent_dynamite_left = o.opponent_dynamite_left;
    st.stake = o.stake;
  }
};

}  // namespace detail

// play makes the game entry for arena::serve; a new P (default-constructed) plays each match.
template <class P>
Game play() {
  static_assert(std::is_base_of_v<Player, P>, "play<P>: P must derive from arena::dynamite::Player");
  return arena::detail::entry<detail::Seat, P>(std::string(kGame));
}

// play with a factory: make() is called once per match.
inline Game play(std::function<std::unique_ptr<Player>()> make, std::string name = "") {
  return arena::detail::entry<detail::Seat>(std::string(kGame), std::move(make), std::move(name));
}

}  // namespace arena::dynamite
