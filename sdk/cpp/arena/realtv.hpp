// arena/realtv.hpp: The Real TV show: players on an island vote each other out; betrayers share
// a bounty when the team fails its trial (rules: docs/rules/realtv.md).
//
//   using namespace arena::realtv;
//   struct LikesThemStrong : Player {
//     Vote vote_for_elimination(const Context& c) override { return weakest(c.active_players, c.own_id); }
//     Vote vote_for_tie(const Context& c) override { return weakest(c.current_ties, c.own_id); }
//   };
//
// A contest makes 11 players of the class (strengths 0..10), one per seat, that live for all
// phases: members keep an instance's memory, static members are shared by the 11 (as the seed's
// class attributes). start(setup) tells an instance its id and strength. A vote is a
// PlayerContext (or a pointer to one), an id, or nothing (Vote{} / nullptr); voting for
// yourself, for a player who is not active, or not voting in the first vote is betrayal.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core.hpp"

namespace arena::realtv {

inline constexpr std::string_view kGame = "realtv";

// The seed's constants.
inline constexpr int kPlayersPerIsland = 12;
inline constexpr int kPhasesPerGame = 100;
inline constexpr int kScoreForTrial = 3;
inline constexpr int kScoreForLastman = 100;
inline constexpr int kScoreForAllTraitors = 100;
inline constexpr int kInstancesPerPlayer = 11;
// A trial with n players succeeds when their strengths add up to kDifficultyA * n + kDifficultyB or more.
inline constexpr int kDifficultyA = 7;
inline constexpr int kDifficultyB = -3;

// Decision is which vote is asked for.
enum class Decision { Unspecified = 0, Elimination = 1, Tie = 2 };

// Votes is a player's votes of one day on the current island (ids as given; "" when none).
struct Votes {
  std::string first_vote;
  std::string tie_vote;
};

// PlayerContext is the seed's PlayerContext: one player as seen at the start of the day.
struct PlayerContext {
  std::string id;
  std::string name;  // the script's class name ("BotPareto" for a filler bot)
  int strength = 0;
  double score = 0;                   // as of the start of the day (fractional after a split bounty)
  std::vector<Votes> previous_moves;  // votes cast on this island, one per day, oldest first
};

// Players is {id: PlayerContext}, sorted by id.
using Players = std::map<std::string, PlayerContext>;

// GameContext is the seed's GameContext.
struct GameContext {
  int total_bots = 0;    // filler bots in the whole arena
  int total_humans = 0;  // script instances (not filler bots)
  int phase_index = 0;   // islands this instance has been on before this one
};

// Setup is one instance of the script.
struct Setup : SeatInfo {
  std::string id;    // the instance's own id (10 upper-case letters and digits)
  std::string name;  // the script's class name
  int strength = 0;
  int phases = 0;
  int players_per_island = 0;
  int instance = 0;  // index among the script's instances (0..10), equal to the strength
};

// Context is the seed's Context plus the decision asked; one object per seat, updated in place.
struct Context : Clock {
  Setup setup;
  Decision decision = Decision::Unspecified;
  int island_index = 0;
  int day = 0;  // day on this island, from 1
  GameContext game;
  Players active_players;  // on the island (for a tie vote: those left after today's traitors)
  Players betrayers;       // who share the bounty if the team fails a trial
  Players eliminated_players;
  Players current_ties;  // the tied players, during a tie vote only
  double own_score = 0;
  std::string own_id;

  // This instance's own PlayerContext on the island (nullptr when it is not active).
  const PlayerContext* me() const {
    auto it = active_players.find(own_id);
    return it == active_players.end() ? nullptr : &it->second;
  }
};

// weakest is the player of least strength in players (smallest id among equals), leaving out
// the id `except` if given; nullptr when there is none.
inline const PlayerContext* weakest(const Players& players, std::string_view except = {}) {
  const PlayerContext* best = nullptr;
  for (const auto& [id, p] : players)
    if (id != except && (!best || p.strength < best->strength)) best = &p;
  return best;
}

// strongest is the player of greatest strength (smallest id among equals), as weakest.
inline const PlayerContext* strongest(const Players& players, std::string_view except = {}) {
  const PlayerContext* best = nullptr;
  for (const auto& [id, p] : players)
    if (id != except && (!best || p.strength > best->strength)) best = &p;
  return best;
}

// Vote is what a vote returns: a player, an id, or no vote.
struct Vote {
  std::string id;  // "" is no vote
  Vote() = default;
  Vote(std::nullptr_t) {}
  Vote(std::string s) : id(std::move(s)) {}
  Vote(std::string_view s) : id(s) {}
  Vote(const char* s) : id(s ? s : "") {}
  Vote(const PlayerContext& p) : id(p.id) {}
  Vote(const PlayerContext* p) : id(p ? p->id : "") {}
};

// Player: implement both votes. One player per seat (per strength). start() and end() are
// optional hooks.
class Player {
 public:
  virtual ~Player() = default;
  virtual void start(const Setup&) {}
  // The day's vote: who should leave the island.
  virtual Vote vote_for_elimination(const Context& ctx) = 0;
  // The tie-break vote among ctx.current_ties.
  virtual Vote vote_for_tie(const Context& ctx) = 0;
  virtual void end(const Outcome<Context>&) {}
};

namespace detail {

inline void copy_players(const wire::RealtvPlayers& from, Players& to) {
  to.clear();
  for (const auto& [key, p] : from) {
    PlayerContext c{p.id.empty() ? key : p.id, p.name, p.strength, p.score, {}};
    c.previous_moves.reserve(p.previous_moves.size());
    for (const wire::RealtvVotes& v : p.previous_moves) c.previous_moves.push_back(Votes{v.first_vote, v.tie_vote});
    to.insert_or_assign(key, std::move(c));
  }
}

class Seat final : public arena::detail::PlayerSeat<Player, Context> {
 public:
  Seat(std::unique_ptr<Player> p, const wire::StartRequest& r) : PlayerSeat(std::move(p), r) {
    Setup& s = state_.setup;
    const wire::RealtvSetup w = arena::detail::setup<wire::RealtvSetup>(r, kGame);
    s.id = w.id;
    s.name = w.name;
    s.strength = w.strength;
    s.phases = w.phases;
    s.players_per_island = w.players_per_island;
    s.instance = w.instance;
    state_.own_id = s.id;
    player_->start(s);
  }

  void act(const wire::ActRequest& req, SteadyClock::time_point now, std::string& out) override {
    observe(arena::detail::observation<wire::RealtvObservation>(req, kGame));
    state_.tick_(now, req);
    Vote v = state_.decision == Decision::Tie ? player_->vote_for_tie(state_) : player_->vote_for_elimination(state_);
    if (!json::valid_utf8(v.id)) throw InvalidAnswer("the vote is not valid UTF-8 text, so it cannot be an id");
    out += ",\"realtv\":{";
    if (!v.id.empty()) {
      out += "\"voteId\":";
      json::append_string(out, v.id);
    }
    out += '}';
  }

  void end(const wire::EndRequest& req) override {
    if (auto o = arena::detail::final_observation<wire::RealtvObservation>(req, kGame)) observe(*o);
    end_with(req);
  }

 private:
  void observe(const wire::RealtvObservation& o) {
    Context& c = state_;
    c.decision = o.decision >= 0 && o.decision <= 2 ? static_cast<Decision>(o.decision) : Decision::Unspecified;
    c.island_index = o.island_index;
    c.day = o.day;
    c.game = GameContext{o.game.total_bots, o.game.total_humans, o.game.phase_index};
    copy_players(o.active_players, c.active_players);
    copy_players(o.betrayers, c.betrayers);
    copy_players(o.eliminated_players, c.eliminated_players);
    copy_players(o.current_ties, c.current_ties);
    c.own_score = o.own_score;
    if (!o.own_id.empty()) c.own_id = o.own_id;
  }
};

}  // namespace detail

// play makes the game entry for arena::serve; a new P plays each seat (each instance).
template <class P>
Game play() {
  static_assert(std::is_base_of_v<Player, P>, "play<P>: P must derive from arena::realtv::Player");
  return arena::detail::entry<detail::Seat, P>(std::string(kGame));
}

inline Game play(std::function<std::unique_ptr<Player>()> make, std::string name = "") {
  return arena::detail::entry<detail::Seat>(std::string(kGame), std::move(make), std::move(name));
}

}  // namespace arena::realtv
