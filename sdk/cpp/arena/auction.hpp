// arena/auction.hpp: the art auction: sealed bids for a known list of paintings; the first to
// own required_count works of one artist wins (rules: docs/rules/auction.md).
//
//   struct Collector : arena::auction::Player {
//     double bid(const arena::auction::State& s) override {
//       return std::min<double>(s.own_money, 10 * (s.owned(s.setup.own_name, s.item) + 1));
//     }
//   };
//
// The whole item list is in state.setup.auction_items; state.rounds lists every round sold so
// far and state.collections counts what each player owns per artist. A bid above the player's
// money, negative or fractional counts as 0. Each player also has a chess clock:
// state.own_remain_time() and state.clock_remaining.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core.hpp"

namespace arena::auction {

inline constexpr std::string_view kGame = "auction";

// RoundResult is one sold item.
struct RoundResult {
  int item_index = 0;   // index in the auction list, from 0
  std::string artist;   // "t0", "t1", ...
  std::string winner;   // who bought it; "" when nobody did
  std::int64_t bid = 0; // what the winner paid; -1 when nobody won
  friend bool operator==(const RoundResult&, const RoundResult&) = default;
};

// Setup is the auction's initial state.
struct Setup : SeatInfo {
  int artists_num = 0;
  int required_count = 0;
  std::vector<std::string> auction_items;  // the artist of every item, in auction order
  int player_count = 0;
  std::vector<std::string> player_names;  // by seat (the keys of wealth_table)
  std::string own_name;
  int start_money = 0;
};

// State is what the player sees before a bid: the previous round's result and everything
// before; one object per seat, updated in place.
struct State : Clock {
  Setup setup;
  int item_index = 0;     // the item on sale now, from 0
  std::string item;       // its artist; "" once the auction is finished
  bool finished = false;  // true when the auction is over (seen in end())
  // The previous round as reported: its artist ("" before the first round), its winner ("" when
  // nobody won) and the winning bid (-1 when nobody won).
  std::string bid_item;
  std::string bid_winner;
  std::int64_t winning_bid = -1;
  std::map<std::string, std::int64_t> wealth_table;  // money by name; -1: disqualified
  std::map<std::string, double> remain_time;         // clock left by name, seconds
  std::int64_t own_money = 0;
  std::string game_winner;                                       // once finished; "" for a draw
  std::vector<RoundResult> rounds;                               // every sold round, oldest first
  std::map<std::string, std::map<std::string, int>> collections;  // [player][artist] = works owned

  // This player's remaining clock in seconds, as of the previous round.
  double own_remain_time() const {
    auto it = remain_time.find(setup.own_name);
    return it != remain_time.end() ? it->second : clock_remaining;
  }
  // Works of artist the named player owns.
  int owned(const std::string& player, const std::string& artist) const {
    auto p = collections.find(player);
    if (p == collections.end()) return 0;
    auto a = p->second.find(artist);
    return a == p->second.end() ? 0 : a->second;
  }
  // Works this player owns per artist.
  const std::map<std::string, int>& own_collection() const {
    static const std::map<std::string, int> none;
    auto p = collections.find(setup.own_name);
    return p == collections.end() ? none : p->second;
  }
  // How many more works of artist the named player must win.
  int needs(const std::string& player, const std::string& artist) const {
    return std::max(0, setup.required_count - owned(player, artist));
  }
};

// Player: implement bid(). start() (with the whole item list) and end() are optional hooks.
class Player {
 public:
  virtual ~Player() = default;
  virtual void start(const Setup&) {}
  // The sealed bid for state.item (a whole number; anything else counts as 0).
  virtual double bid(const State& state) = 0;
  virtual void end(const Outcome<State>&) {}
};

namespace detail {

class Seat final : public arena::detail::PlayerSeat<Player, State> {
 public:
  Seat(std::unique_ptr<Player> p, const wire::StartRequest& r) : PlayerSeat(std::move(p), r) {
    Setup& s = state_.setup;
    wire::AuctionSetup a = arena::detail::setup<wire::AuctionSetup>(r, kGame);
    s.artists_num = a.artists_num;
    s.required_count = a.required_count;
    s.auction_items = std::move(a.auction_items);
    s.player_count = a.player_count;
    s.player_names = std::move(a.player_names);
    s.own_name = a.own_name;
    s.start_money = a.start_money;
    state_.item = s.auction_items.empty() ? "" : s.auction_items[0];
    state_.own_money = s.start_money;
    for (const std::string& n : s.player_names) {
      state_.wealth_table[n] = s.start_money;
      state_.collections[n];
    }
    player_->start(s);
  }

  void act(const wire::ActRequest& req, SteadyClock::time_point now, std::string& out) override {
    observe(arena::detail::observation<wire::AuctionObservation>(req, kGame));
    state_.tick_(now, req);
    double b = player_->bid(state_);
    out += ",\"auction\":{";
    if (b != 0 || std::signbit(b)) {
      out += "\"bid\":";
      json::append_double(out, b);
    }
    out += '}';
  }

  void end(const wire::EndRequest& req) override {
    if (auto o = arena::detail::final_observation<wire::AuctionObservation>(req, kGame)) observe(*o);
    end_with(req);
  }

 private:
  void observe(const wire::AuctionObservation& o) {
    State& st = state_;
    int prev = o.item_index - 1;
    if (!o.bid_item.empty() && (st.rounds.empty() || st.rounds.back().item_index < prev)) {
      st.rounds.push_back(RoundResult{prev, o.bid_item, o.bid_winner, o.winning_bid});
      if (!o.bid_winner.empty()) ++st.collections[o.bid_winner][o.bid_item];
    }
    st.item_index = o.item_index;
    st.item = o.item;
    st.finished = o.finished;
    st.bid_item = o.bid_item;
    st.bid_winner = o.bid_winner;
    st.winning_bid = o.winning_bid;
    st.wealth_table.clear();
    for (const auto& [name, money] : o.wealth_table) st.wealth_table[name] = money;
    st.remain_time.clear();
    for (const auto& [name, t] : o.remain_time) st.remain_time[name] = t;
    st.own_money = o.own_money;
    st.game_winner = o.game_winner;
  }
};

}  // namespace detail

// play makes the game entry for arena::serve; a new P plays each auction.
template <class P>
Game play() {
  static_assert(std::is_base_of_v<Player, P>, "play<P>: P must derive from arena::auction::Player");
  return arena::detail::entry<detail::Seat, P>(std::string(kGame));
}

inline Game play(std::function<std::unique_ptr<Player>()> make, std::string name = "") {
  return arena::detail::entry<detail::Seat>(std::string(kGame), std::move(make), std::move(name));
}

}  // namespace arena::auction
