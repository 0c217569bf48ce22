// arena/wire.hpp: the arena.v1 messages a stdio bot receives, as plain structs, and their
// decoders from the canonical protobuf JSON mapping (proto/arena/v1/*.proto is the source).
//
// A missing field is its default (0, "", false, empty); an unknown field is skipped; a field may
// be named in lowerCamelCase or by its proto name; enums come by name or number; 64-bit integers
// as strings or numbers; maps are JSON objects. The game headers build each game's API on these.
//
// The calls (StartRequest, ActRequest, EndRequest) know no game: their setup or observation oneof
// is a member named by the game, kept as its JSON text (Member) for the seat's game to decode, so
// a game without a header is played as JSON (arena/any.hpp) and a new game adds no table here.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "json.hpp"

namespace arena::wire {

using json::name_is;
using json::Reader;

// Enum names, indexed by value.
inline constexpr std::array<std::string_view, 6> kDynamiteMove = {
    "DYNAMITE_MOVE_UNSPECIFIED", "DYNAMITE_MOVE_ROCK",     "DYNAMITE_MOVE_PAPER",
    "DYNAMITE_MOVE_SCISSORS",    "DYNAMITE_MOVE_DYNAMITE", "DYNAMITE_MOVE_WATER"};
inline constexpr std::array<std::string_view, 6> kFingerMove = {
    "FINGER_MOVE_UNSPECIFIED",   "FINGER_MOVE_LEFT_TO_LEFT",   "FINGER_MOVE_LEFT_TO_RIGHT",
    "FINGER_MOVE_RIGHT_TO_LEFT", "FINGER_MOVE_RIGHT_TO_RIGHT", "FINGER_MOVE_SWITCH"};
inline constexpr std::array<std::string_view, 3> kBiddingPlayer = {
    "BIDDING_PLAYER_UNSPECIFIED", "BIDDING_PLAYER_A", "BIDDING_PLAYER_B"};
inline constexpr std::array<std::string_view, 3> kRealtvDecision = {
    "REALTV_DECISION_UNSPECIFIED", "REALTV_DECISION_ELIMINATION", "REALTV_DECISION_TIE"};
inline constexpr std::array<std::string_view, 4> kResult = {"RESULT_UNSPECIFIED", "RESULT_WIN",
                                                            "RESULT_LOSS", "RESULT_DRAW"};
inline constexpr std::array<std::string_view, 3> kClockMode = {"CLOCK_MODE_UNSPECIFIED", "CLOCK_MODE_WALL",
                                                               "CLOCK_MODE_CPU"};
inline constexpr std::array<std::string_view, 3> kBotErrorKind = {
    "BOT_ERROR_KIND_UNSPECIFIED", "BOT_ERROR_KIND_EXCEPTION", "BOT_ERROR_KIND_INVALID_ANSWER"};

// --- dynamite --------------------------------------------------------------------------------

struct DynamiteSetup {
  std::int32_t target_score = 0, max_rounds = 0, dynamite_per_player = 0;
};

struct DynamiteObservation {
  std::int32_t round = 0, last_own = 0, last_opponent = 0, own_score = 0, opponent_score = 0,
               own_dynamite_left = 0, opponent_dynamite_left = 0, stake = 0;
};

inline void read(Reader& r, DynamiteSetup& m) {
  r.object([&](std::string_view k) {
    if (name_is(k, "target_score")) m.target_score = r.int32();
    else if (name_is(k, "max_rounds")) m.max_rounds = r.int32();
    else if (name_is(k, "dynamite_per_player")) m.dynamite_per_player = r.int32();
    else r.skip();
  });
}

inline void read(Reader& r, DynamiteObservation& m) {
  r.object([&](std::string_view k) {
    if (name_is(k, "round")) m.round = r.int32();
    else if (name_is(k, "last_own")) m.last_own = r.enumeration(kDynamiteMove);
    else if (name_is(k, "last_opponent")) m.last_opponent = r.enumeration(kDynamiteMove);
    else if (name_is(k, "own_score")) m.own_score = r.int32();
    else if (name_is(k, "opponent_score")) m.opponent_score = r.int32();
    else if (name_is(k, "own_dynamite_left")) m.own_dynamite_left = r.int32();
    else if (name_is(k, "opponent_dynamite_left")) m.opponent_dynamite_left = r.int32();
    else if (name_is(k, "stake")) m.stake = r.int32();
    else r.skip();
  });
}

// --- finger ----------------------------------------------------------------------------------

struct FingerSetup {
  std::int32_t games = 0, max_rounds = 0;
  std::string own_name, opponent_name;
};

struct FingerAction {
  std::int32_t move = 0, switch_left = 0, switch_right = 0;
};

struct FingerHistoryEntry {
  std::string player;
  FingerAction action;
  bool own = false;
};

struct FingerObservation {
  std::int32_t game = 0;
  bool new_game = false;
  std::string starting_player;
  std::int32_t round = 0, own_left = 0, own_right = 0, opponent_left = 0, opponent_right = 0;
  std::vector<FingerHistoryEntry> recent;
  std::int32_t games_won = 0, games_lost = 0, games_both_lost = 0;
  bool started = false;
};

inline void read(Reader& r, FingerSetup& m) {
  r.object([&](std::string_view k) {
    if (name_is(k, "games")) m.games = r.int32();
    else if (name_is(k, "max_rounds")) m.max_rounds = r.int32();
    else if (name_is(k, "own_name")) m.own_name = r.string();
    else if (name_is(k, "opponent_name")) m.opponent_name = r.string();
    else r.skip();
  });
}

inline void read(Reader& r, FingerAction& m) {
  r.object([&](std::string_view k) {
    if (name_is(k, "move")) m.move = r.enumeration(kFingerMove);
    else if (name_is(k, "switch_left")) m.switch_left = r.int32();
    else if (name_is(k, "switch_right")) m.switch_right = r.int32();
    else r.skip();
  });
}

inline void read(Reader& r, FingerHistoryEntry& m) {
  r.object([&](std::string_view k) {
    if (name_is(k, "player")) m.player = r.string();
    else if (name_is(k, "action")) read(r, m.action);
    else if (name_is(k, "own")) m.own = r.boolean();
    else r.skip();
  });
}

inline void read(Reader& r, FingerObservation& m) {
  r.object([&](std::string_view k) {
    if (name_is(k, "game")) m.game = r.int32();
    else if (name_is(k, "new_game")) m.new_game = r.boolean();
    else if (name_is(k, "starting_player")) m.starting_player = r.string();
    else if (name_is(k, "round")) m.round = r.int32();
    else if (name_is(k, "own_left")) m.own_left = r.int32();
    else if (name_is(k, "own_right")) m.own_right = r.int32();
    else if (name_is(k, "opponent_left")) m.opponent_left = r.int32();
    else if (name_is(k, "opponent_right")) m.opponent_right = r.int32();
    else if (name_is(k, "recent")) {
      m.recent.clear();
      r.array([&] { read(r, m.recent.emplace_back()); });
    } else if (name_is(k, "games_won")) m.games_won = r.int32();
    else if (name_is(k, "games_lost")) m.games_lost = r.int32();
    else if (name_is(k, "games_both_lost")) m.games_both_lost = r.int32();
    else if (name_is(k, "started")) m.started = r.boolean();
    else r.skip();
  });
}

// --- bidding ---------------------------------------------------------------------------------

struct BiddingSetup {
  std::int32_t games = 0, start_money = 0, max_rounds = 0;
  std::string own_name, opponent_name;
};

struct BiddingObservation {
  std::int32_t game = 0;
  bool new_game = false;
  std::int32_t player = 0, own_money = 0, opponent_money = 0, start_money = 0, bottle_position = 0;
  bool has_last = false;
  std::int32_t last_own_bid = 0, last_opponent_bid = 0, rounds_won = 0, rounds_lost = 0;
  bool draw_advantage = false;
  std::int32_t round = 0;
  std::string opponent_name;
  std::int32_t games_won = 0, games_lost = 0, games_drawn = 0;
};

inline void read(Reader& r, BiddingSetup& m) {
  r.object([&](std::string_view k) {
    if (name_is(k, "games")) m.games = r.int32();
    else if (name_is(k, "start_money")) m.start_money = r.int32();
    else if (name_is(k, "max_rounds")) m.max_rounds = r.int32();
    else if (name_is(k, "own_name")) m.own_name = r.string();
    else if (name_is(k, "opponent_name")) m.opponent_name = r.string();
    else r.skip();
  });
}

inline void read(Reader& r, BiddingObservation& m) {
  r.object([&](std::string_view k) {
    if (name_is(k, "game")) m.game = r.int32();
    else if (name_is(k, "new_game")) m.new_game = r.boolean();
    else if (name_is(k, "player")) m.player = r.enumeration(kBiddingPlayer);
    else if (name_is(k, "own_money")) m.own_money = r.int32();
    else if (name_is(k, "opponent_money")) m.opponent_money = r.int32();
    else if (name_is(k, "start_money")) m.start_money = r.int32();
    else if (name_is(k, "bottle_position")) m.bottle_position = r.int32();
    else if (name_is(k, "has_last")) m.has_last = r.boolean();
    else if (name_is(k, "last_own_bid")) m.last_own_bid = r.int32();
    else if (name_is(k, "last_opponent_bid")) m.last_opponent_bid = r.int32();
    else if (name_is(k, "rounds_won")) m.rounds_won = r.int32();
    else if (name_is(k, "rounds_lost")) m.rounds_lost = r.int32();
    else if (name_is(k, "draw_advantage")) m.draw_advantage = r.boolean();
    else if (name_is(k, "round")) m.round = r.int32();
    else if (name_is(k, "opponent_name")) m.opponent_name = r.string();
    else if (name_is(k, "games_won")) m.games_won = r.int32();
    else if (name_is(k, "games_lost")) m.games_lost = r.int32();
    else if (name_is(k, "games_drawn")) m.games_drawn = r.int32();
    else r.skip();
  });
}

// --- auction ---------------------------------------------------------------------------------

struct AuctionSetup {
  std::int32_t artists_num = 0, required_count = 0;
  std::vector<std::string> auction_items;
  std::int32_t player_count = 0;
  std::vector<std::string> player_names;
  std::string own_name;
  std::int32_t start_money = 0;
};

struct AuctionObservation {
  std::int32_t item_index = 0;
  bool finished = false;
  std::string bid_item, bid_winner;
  std::int64_t winning_bid = 0;
  std::vector<std::pair<std::string, std::int64_t>> wealth_table;  // in the line's order
  std::vector<std::pair<std::string, double>> remain_time;
  std::string game_winner;
  std::int64_t own_money = 0;
  std::string item;
};

inline void read_strings(Reader& r, std::vector<std::string>& v) {
  v.clear();
  r.array([&] { v.push_back(r.string()); });
}

inline void read(Reader& r, AuctionSetup& m) {
  r.object([&](std::string_view k) {
    if (name_is(k, "artists_num")) m.artists_num = r.int32();
    else if (name_is(k, "required_count")) m.required_count = r.int32();
    else if (name_is(k, "auction_items")) read_strings(r, m.auction_items);
    else if (name_is(k, "player_count")) m.player_count = r.int32();
    else if (name_is(k, "player_names")) read_strings(r, m.player_names);
    else if (name_is(k, "own_name")) m.own_name = r.string();
    else if (name_is(k, "start_money")) m.start_money = r.int32();
    else r.skip();
  });
}

inline void read(Reader& r, AuctionObservation& m) {
  r.object([&](std::string_view k) {
    if (name_is(k, "item_index")) m.item_index = r.int32();
    else if (name_is(k, "finished")) m.finished = r.boolean();
    else if (name_is(k, "bid_item")) m.bid_item = r.string();
    else if (name_is(k, "bid_winner")) m.bid_winner = r.string();
    else if (name_is(k, "winning_bid")) m.winning_bid = r.int64();
    else if (name_is(k, "wealth_table")) {
      m.wealth_table.clear();
      r.object([&](std::string_view name) {
        std::string key(name);
        m.wealth_table.emplace_back(std::move(key), r.int64());
      });
    } else if (name_is(k, "remain_time")) {
      m.remain_time.clear();
      r.object([&](std::string_view name) {
        std::string key(name);
        m.remain_time.emplace_back(std::move(key), r.number());
      });
    } else if (name_is(k, "game_winner")) m.game_winner = r.string();
    else if (name_is(k, "own_money")) m.own_money = r.int64();
    else if (name_is(k, "item")) m.item = r.string();
    else r.skip();
  });
}

// --- realtv ----------------------------------------------------------------------------------

struct RealtvSetup {
  std::string id, name;
  std::int32_t strength = 0, phases = 0, players_per_island = 0, instance = 0;
};

struct RealtvVotes {
  std::string first_vote, tie_vote;
};

struct RealtvPlayer {
  std::string id, name;
  std::int32_t strength = 0;
  double score = 0;
  std::vector<RealtvVotes> previous_moves;
};

struct RealtvGameContext {
  std::int32_t total_bots = 0, total_humans = 0, phase_index = 0;
};

using RealtvPlayers = std::vector<std::pair<std::string, RealtvPlayer>>;

struct RealtvObservation {
  std::int32_t decision = 0, island_index = 0;
  RealtvGameContext game;
  RealtvPlayers active_players, betrayers, eliminated_players, current_ties;
  double own_score = 0;
  std::string own_id;
  std::int32_t day = 0;
};

inline void read(Reader& r, RealtvSetup& m) {
  r.object([&](std::string_view k) {
    if (name_is(k, "id")) m.id = r.string();
    else if (name_is(k, "name")) m.name = r.string();
    else if (name_is(k, "strength")) m.strength = r.int32();
    else if (name_is(k, "phases")) m.phases = r.int32();
    else if (name_is(k, "players_per_island")) m.players_per_island = r.int32();
    else if (name_is(k, "instance")) m.instance = r.int32();
    else r.skip();
  });
}

inline void read(Reader& r, RealtvVotes& m) {
  r.object([&](std::string_view k) {
    if (name_is(k, "first_vote")) m.first_vote = r.string();
    else if (name_is(k, "tie_vote")) m.tie_vote = r.string();
    else r.skip();
  });
}

inline void read(Reader& r, RealtvPlayer& m) {
  r.object([&](std::string_view k) {
    if (name_is(k, "id")) m.id = r.string();
    else if (name_is(k, "name")) m.name = r.string();
    else if (name_is(k, "strength")) m.strength = r.int32();
    else if (name_is(k, "score")) m.score = r.number();
    else if (name_is(k, "previous_moves")) {
      m.previous_moves.clear();
      r.array([&] { read(r, m.previous_moves.emplace_back()); });
    } else r.skip();
  });
}

inline void read(Reader& r, RealtvPlayers& m) {
  m.clear();
  r.object([&](std::string_view k) {
    auto& e = m.emplace_back(std::string(k), RealtvPlayer{});
    read(r, e.second);
  });
}

inline void read(Reader& r, RealtvGameContext& m) {
  r.object([&](std::string_view k) {
    if (name_is(k, "total_bots")) m.total_bots = r.int32();
    else if (name_is(k, "total_humans")) m.total_humans = r.int32();
    else if (name_is(k, "phase_index")) m.phase_index = r.int32();
    else r.skip();
  });
}

inline void read(Reader& r, RealtvObservation& m) {
  r.object([&](std::string_view k) {
    if (name_is(k, "decision")) m.decision = r.enumeration(kRealtvDecision);
    else if (name_is(k, "island_index")) m.island_index = r.int32();
    else if (name_is(k, "game")) read(r, m.game);
    else if (name_is(k, "active_players")) read(r, m.active_players);
    else if (name_is(k, "betrayers")) read(r, m.betrayers);
    else if (name_is(k, "eliminated_players")) read(r, m.eliminated_players);
    else if (name_is(k, "current_ties")) read(r, m.current_ties);
    else if (name_is(k, "own_score")) m.own_score = r.number();
    else if (name_is(k, "own_id")) m.own_id = r.string();
    else if (name_is(k, "day")) m.day = r.int32();
    else r.skip();
  });
}

// --- the calls -------------------------------------------------------------------------------

// Member is an object member of a call that is none of its common fields: the setup or
// observation oneof, keyed by the game's name (or a field of a later protocol version). json is
// its text, a view into the request line.
struct Member {
  std::string key;
  std::string_view json;
};

// Members are a call's object members beyond its common fields.
struct Members {
  std::vector<Member> list;

  // of is the member named game (the game's message), or nullptr.
  const Member* of(std::string_view game) const noexcept {
    for (const Member& m : list)
      if (m.key == game) return &m;
    return nullptr;
  }
  // other_than names another member than game's, for a message ("none" when there is none).
  std::string_view other_than(std::string_view game) const noexcept {
    for (const Member& m : list)
      if (m.key != game) return m.key;
    return "none";
  }
};

// read_member keeps the value of key k in ms if it is an object (null is an unset oneof member;
// any other value is a field this kit does not know, skipped).
inline void read_member(Reader& r, std::string_view k, Members& ms) {
  if (r.kind() == '{') ms.list.push_back(Member{std::string(k), r.raw()});
  else r.skip();
}

// decode reads a whole message of type M from its JSON text.
template <class M>
M decode(std::string_view json) {
  Reader r(json);
  M m{};
  read(r, m);
  r.finish();
  return m;
}

struct DescribeRequest {
  std::string host_version;
};

struct StartRequest {
  std::string match_id;
  std::int32_t seat = 0;
  std::string game;
  std::vector<std::string> players;
  std::int64_t deadline_ms = 0, clock_ms = 0;
  Members setup;  // the setup oneof: setup.of(game)
};

struct ActRequest {
  std::string match_id;
  std::int32_t seat = 0;
  std::int64_t step = 0, deadline_ms = 0, clock_remaining_ms = 0;
  std::int32_t clock_mode = 0;
  std::int64_t budget_us = 0, bank_remaining_us = 0, wall_cap_ms = 0;
  Members observation;  // the observation oneof: observation.of(game)
};

struct EndRequest {
  std::string match_id;
  std::int32_t seat = 0;
  std::int32_t result = 0;
  double score = 0;
  Members observation;  // the final observation, if the game sends one
};

inline void read(Reader& r, DescribeRequest& m) {
  r.object([&](std::string_view k) {
    if (name_is(k, "host_version")) m.host_version = r.string();
    else r.skip();
  });
}

inline void read(Reader& r, StartRequest& m) {
  r.object([&](std::string_view k) {
    if (name_is(k, "match_id")) m.match_id = r.string();
    else if (name_is(k, "seat")) m.seat = r.int32();
    else if (name_is(k, "game")) m.game = r.string();
    else if (name_is(k, "players")) read_strings(r, m.players);
    else if (name_is(k, "deadline_ms")) m.deadline_ms = r.int64();
    else if (name_is(k, "clock_ms")) m.clock_ms = r.int64();
    else read_member(r, k, m.setup);
  });
}

inline void read(Reader& r, ActRequest& m) {
  r.object([&](std::string_view k) {
    if (name_is(k, "match_id")) m.match_id = r.string();
    else if (name_is(k, "seat")) m.seat = r.int32();
    else if (name_is(k, "step")) m.step = r.int64();
    else if (name_is(k, "deadline_ms")) m.deadline_ms = r.int64();
    else if (name_is(k, "clock_remaining_ms")) m.clock_remaining_ms = r.int64();
    else if (name_is(k, "clock_mode")) m.clock_mode = r.enumeration(kClockMode);
    else if (name_is(k, "budget_us")) m.budget_us = r.int64();
    else if (name_is(k, "bank_remaining_us")) m.bank_remaining_us = r.int64();
    else if (name_is(k, "wall_cap_ms")) m.wall_cap_ms = r.int64();
    else read_member(r, k, m.observation);
  });
}

inline void read(Reader& r, EndRequest& m) {
  r.object([&](std::string_view k) {
    if (name_is(k, "match_id")) m.match_id = r.string();
    else if (name_is(k, "seat")) m.seat = r.int32();
    else if (name_is(k, "result")) m.result = r.enumeration(kResult);
    else if (name_is(k, "score")) m.score = r.number();
    else read_member(r, k, m.observation);
  });
}

}  // namespace arena::wire
