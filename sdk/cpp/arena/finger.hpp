// arena/finger.hpp: the finger game ("chopsticks"): hit the opponent's hands or switch your own
// fingers (rules: docs/rules/finger.md).
//
//   using namespace arena::finger;
//   struct Hitter : Player {
//     Move move(const State& s) override { return s.legal_moves().front(); }
//   };
//   int main() { return arena::serve({.name = "hitter", .games = {play<Hitter>()}}); }
//
// LeftToRight means: my LEFT hand hits the opponent's RIGHT hand. Switch(l, r) sets my hands to
// l and r fingers (same total). A match is a series of games; state.history holds the moves of
// the current game only, each with who made it.
#pragma once

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "core.hpp"

namespace arena::finger {

inline constexpr std::string_view kGame = "finger";

// Kind is a move's kind: one of the four hits, or a switch.
enum class Kind : int {
  Unspecified = 0,
  LeftToLeft = 1,
  LeftToRight = 2,
  RightToLeft = 3,
  RightToRight = 4,
  Switch = 5,
};

// Move is a hit (kind LeftToLeft..RightToRight; left and right unused, 0) or a switch to `left`
// and `right` fingers. Any other kind is not a move: answering it is invalid.
struct Move {
  Kind kind = Kind::Unspecified;
  int left = 0;
  int right = 0;

  constexpr bool is_hit() const noexcept { return kind >= Kind::LeftToLeft && kind <= Kind::RightToRight; }
  constexpr bool is_switch() const noexcept { return kind == Kind::Switch; }
  // For a hit: my attacking hand and the opponent's hit hand (0 left, 1 right).
  constexpr int from_hand() const noexcept { return kind == Kind::RightToLeft || kind == Kind::RightToRight; }
  constexpr int to_hand() const noexcept { return kind == Kind::LeftToRight || kind == Kind::RightToRight; }
  friend constexpr bool operator==(const Move&, const Move&) = default;
};

inline constexpr Move LeftToLeft{Kind::LeftToLeft};
inline constexpr Move LeftToRight{Kind::LeftToRight};
inline constexpr Move RightToLeft{Kind::RightToLeft};
inline constexpr Move RightToRight{Kind::RightToRight};
// The four hits, in the order of the wire enum.
inline constexpr std::array<Move, 4> kHits = {LeftToLeft, LeftToRight, RightToLeft, RightToRight};

// Switch is the move that sets my hands to exactly left and right fingers.
constexpr Move Switch(int left, int right) noexcept { return Move{Kind::Switch, left, right}; }

// to_string: "LEFT_TO_RIGHT", "SWITCH(1,3)".
inline std::string to_string(const Move& m) {
  switch (m.kind) {
    case Kind::LeftToLeft: return "LEFT_TO_LEFT";
    case Kind::LeftToRight: return "LEFT_TO_RIGHT";
    case Kind::RightToLeft: return "RIGHT_TO_LEFT";
    case Kind::RightToRight: return "RIGHT_TO_RIGHT";
    case Kind::Switch: return "SWITCH(" + std::to_string(m.left) + "," + std::to_string(m.right) + ")";
    default: return "Kind(" + std::to_string(static_cast<int>(m.kind)) + ")";
  }
}

// HistoryEntry is one move of the current game.
struct HistoryEntry {
  std::string player;  // who moved (a name)
  Move move;
  bool own = false;  // true when this player made it (names may repeat in self-play)
  friend bool operator==(const HistoryEntry&, const HistoryEntry&) = default;
};

// Setup is a finger match: a series of games.
struct Setup : SeatInfo {
  int games = 0;
  int max_rounds = 0;  // moves after which a game ends with both players losing
  std::string own_name;
  std::string opponent_name;
};

// State is what the player sees before its move; one object per seat, updated in place.
struct State : Clock {
  Setup setup;
  int game = 0;           // the current game, from 1
  bool new_game = false;  // true on this player's first move of a game
  int round = 0;          // the move about to be played in this game, from 1
  std::string starting_player;
  bool started = false;  // true when this player started the current game
  int own_left = 1, own_right = 1, opponent_left = 1, opponent_right = 1;
  std::vector<HistoryEntry> history;  // moves of the current game, oldest first
  int games_won = 0, games_lost = 0, games_both_lost = 0;

  const std::string& own_name() const { return setup.own_name; }
  const std::string& opponent_name() const { return setup.opponent_name; }

  // Whether m is legal now (an illegal move loses the game at once).
  bool legal(const Move& m) const {
    const int own[2] = {own_left, own_right};
    const int opp[2] = {opponent_left, opponent_right};
    if (m.is_hit()) return own[m.from_hand()] > 0 && opp[m.to_hand()] > 0;
    if (!m.is_switch()) return false;
    return m.left >= 0 && m.left <= 5 && m.right >= 0 && m.right <= 5 && m.left + m.right == own_left + own_right &&
           !(m.left == own_left && m.right == own_right) && !(m.left == own_right && m.right == own_left);
  }

  // Every legal move now: the hits first, then the switches by growing left hand.
  std::vector<Move> legal_moves() const {
    std::vector<Move> out;
    for (const Move& h : kHits)
      if (legal(h)) out.push_back(h);
    int total = own_left + own_right;
    for (int l = 0; l <= 5; ++l)
      if (legal(Switch(l, total - l))) out.push_back(Switch(l, total - l));
    return out;
  }
};

// Player: implement move(). start() and end() are optional hooks.
class Player {
 public:
  virtual ~Player() = default;
  virtual void start(const Setup&) {}
  virtual Move move(const State& state) = 0;
  virtual void end(const Outcome<State>&) {}
};

namespace detail {

inline Move from_wire(const wire::FingerAction& a) {
  if (a.move >= 1 && a.move <= 4) return Move{static_cast<Kind>(a.move)};
  return Switch(a.switch_left, a.switch_right);
}

class Seat final : public arena::detail::PlayerSeat<Player, State> {
 public:
  Seat(std::unique_ptr<Player> p, const wire::StartRequest& r) : PlayerSeat(std::move(p), r) {
    Setup& s = state_.setup;
    const wire::FingerSetup w = arena::detail::setup<wire::FingerSetup>(r, kGame);
    s.games = w.games;
    s.max_rounds = w.max_rounds;
    s.own_name = w.own_name;
    s.opponent_name = w.opponent_name;
    player_->start(s);
  }

  void act(const wire::ActRequest& req, SteadyClock::time_point now, std::string& out) override {
    observe(arena::detail::observation<wire::FingerObservation>(req, kGame));
    state_.tick_(now, req);
    Move m = player_->move(state_);
    if (m.is_hit()) {
      out += ",\"finger\":{\"move\":\"";
      out += wire::kFingerMove[static_cast<std::size_t>(m.kind)];
      out += "\"}";
    } else if (m.is_switch()) {
      out += ",\"finger\":{\"move\":\"FINGER_MOVE_SWITCH\"";
      if (m.left != 0) {
        out += ",\"switchLeft\":";
        json::append_int(out, m.left);
      }
      if (m.right != 0) {
        out += ",\"switchRight\":";
        json::append_int(out, m.right);
      }
      out += '}';
    } else {
      throw InvalidAnswer("move() returned " + to_string(m) +
                          ", not LeftToLeft, LeftToRight, RightToLeft, RightToRight or Switch(left, right)");
    }
  }

  void end(const wire::EndRequest& req) override {
    if (auto o = arena::detail::final_observation<wire::FingerObservation>(req, kGame)) observe(*o);
    end_with(req);
  }

 private:
  void observe(const wire::FingerObservation& o) {
    State& st = state_;
    if (o.new_game || o.game != st.game) st.history.clear();
    st.game = o.game;
    st.new_game = o.new_game;
    st.round = o.round;
    st.starting_player = o.starting_player;
    st.started = o.started;
    st.own_left = o.own_left;
    st.own_right = o.own_right;
    st.opponent_left = o.opponent_left;
    st.opponent_right = o.opponent_right;
    st.games_won = o.games_won;
    st.games_lost = o.games_lost;
    st.games_both_lost = o.games_both_lost;
    for (const wire::FingerHistoryEntry& e : o.recent) st.history.push_back(HistoryEntry{e.player, from_wire(e.action), e.own});
  }
};

}  // namespace detail

// play makes the game entry for arena::serve; a new P plays each match (all its games).
template <class P>
Game play() {
  static_assert(std::is_base_of_v<Player, P>, "play<P>: P must derive from arena::finger::Player");
  return arena::detail::entry<detail::Seat, P>(std::string(kGame));
}

inline Game play(std::function<std::unique_ptr<Player>()> make, std::string name = "") {
  return arena::detail::entry<detail::Seat>(std::string(kGame), std::move(make), std::move(name));
}

}  // namespace arena::finger
