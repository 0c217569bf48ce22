// arena/bidding.hpp: the bidding game: two players bid for a bottle that moves one place toward
// each round's winner (rules: docs/rules/bidding.md).
//
//   struct Steady : arena::bidding::Player {
//     std::int64_t bid(const arena::bidding::State& s) override { return std::min(s.own_money, 12); }
//   };
//
// A bid is at least 1 and at most state.own_money, or 0 when the player has no money left. A
// match is a series of games with sides alternating; own_bids and opponent_bids hold the bids
// of the current game only.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core.hpp"

namespace arena::bidding {

inline constexpr std::string_view kGame = "bidding";

// Side A wins the bottle at place 10, side B at place 0; A holds the draw advantage first.
enum class Side { Unknown = 0, A = 1, B = 2 };

struct Setup : SeatInfo {
  int games = 0;
  int start_money = 0;
  int max_rounds = 0;  // rounds after which a game without a winner is a draw
  std::string own_name;
  std::string opponent_name;
};

// State is what the player sees before a bid; one object per seat, updated in place.
struct State : Clock {
  Setup setup;
  int game = 0;           // the current game, from 1
  bool new_game = false;  // true on the first bid of a game
  int round = 0;          // the round within the game, from 1
  Side side = Side::Unknown;
  int own_money = 0, opponent_money = 0, start_money = 0;
  int bottle_position = 5;  // 0..10; A wins at 10, B at 0
  std::vector<std::int64_t> own_bids, opponent_bids;  // bids of this game, oldest first
  int rounds_won = 0, rounds_lost = 0;  // a tied round goes to the draw advantage's holder
  bool draw_advantage = false;          // true while this player holds it
  std::string opponent_name;
  int games_won = 0, games_lost = 0, games_drawn = 0;

  bool is_player_a() const { return side == Side::A; }
  const std::string& own_name() const { return setup.own_name; }
  // How many more rounds this player must win (net) for the bottle to reach its end.
  int places_to_win() const { return side == Side::A ? 10 - bottle_position : bottle_position; }
  // How many more rounds the opponent must win (net) to take the bottle.
  int places_to_lose() const { return 10 - places_to_win(); }
  // The least legal bid: 1, or 0 when this player has no money left.
  int min_bid() const { return std::min(1, own_money); }
};

// Player: implement bid(), in whole dollars. start() and end() are optional hooks.
class Player {
 public:
  virtual ~Player() = default;
  virtual void start(const Setup&) {}
  virtual std::int64_t bid(const State& state) = 0;
  virtual void end(const Outcome<State>&) {}
};

namespace detail {

class Seat final : public arena::detail::PlayerSeat<Player, State> {
 public:
  Seat(std::unique_ptr<Player> p, const wire::StartRequest& r) : PlayerSeat(std::move(p), r) {
    Setup& s = state_.setup;
    const wire::BiddingSetup w = arena::detail::setup<wire::BiddingSetup>(r, kGame);
    s.games = w.games;
    s.start_money = w.start_money;
    s.max_rounds = w.max_rounds;
    s.own_name = w.own_name;
    s.opponent_name = w.opponent_name;
    state_.own_money = state_.opponent_money = state_.start_money = s.start_money;
    state_.opponent_name = s.opponent_name;
    player_->start(s);
  }

  void act(const wire::ActRequest& req, SteadyClock::time_point now, std::string& out) override {
    observe(arena::detail::observation<wire::BiddingObservation>(req, kGame));
    state_.tick_(now, req);
    std::int64_t b = player_->bid(state_);
    out += ",\"bidding\":{";
    if (b != 0) {
      out += "\"bid\":";
      json::append_int64(out, b);
    }
    out += '}';
  }

  void end(const wire::EndRequest& req) override {
    if (auto o = arena::detail::final_observation<wire::BiddingObservation>(req, kGame)) observe(*o);
    end_with(req);
  }

 private:
  void observe(const wire::BiddingObservation& o) {
    State& st = state_;
    if (o.new_game || o.game != st.game) {
      st.own_bids.clear();
      st.opponent_bids.clear();
    }
    // The previous round's bids, once (the round number guards against a repeated request).
    if (o.has_last && static_cast<int>(st.own_bids.size()) < o.round - 1) {
      st.own_bids.push_back(o.last_own_bid);
      st.opponent_bids.push_back(o.last_opponent_bid);
    }
    st.game = o.game;
    st.new_game = o.new_game;
    st.round = o.round;
    st.side = o.player >= 0 && o.player <= 2 ? static_cast<Side>(o.player) : Side::Unknown;
    st.own_money = o.own_money;
    st.opponent_money = o.opponent_money;
    st.start_money = o.start_money;
    st.bottle_position = o.bottle_position;
    st.rounds_won = o.rounds_won;
    st.rounds_lost = o.rounds_lost;
    st.draw_advantage = o.draw_advantage;
    if (!o.opponent_name.empty()) st.opponent_name = o.opponent_name;
    st.games_won = o.games_won;
    st.games_lost = o.games_lost;
    st.games_drawn = o.games_drawn;
  }
};

}  // namespace detail

// play makes the game entry for arena::serve; a new P plays each match (all its games).
template <class P>
Game play() {
  static_assert(std::is_base_of_v<Player, P>, "play<P>: P must derive from arena::bidding::Player");
  return arena::detail::entry<detail::Seat, P>(std::string(kGame));
}

inline Game play(std::function<std::unique_ptr<Player>()> make, std::string name = "") {
  return arena::detail::entry<detail::Seat>(std::string(kGame), std::move(make), std::move(name));
}

}  // namespace arena::bidding
