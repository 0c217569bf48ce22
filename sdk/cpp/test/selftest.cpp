// The C++ kit's self-test. From the repository root:
//
//   g++ -std=c++20 -O1 -I sdk/cpp sdk/cpp/test/selftest.cpp -o /root/tmp-cpp-selftest && /root/tmp-cpp-selftest sdk/cpp/test
//
// 1. The library: every transcript of transcripts/ (docs/protocol.md section 8's matches, plus
//    errors and malformed lines) is fed line by line to the kit's line handler serving the test
//    players below, which play like the players of the protocol document's examples, so the
//    document's answers are the expected ones. Each answer is checked against the transcript,
//    and the state the players saw (the history the kit rebuilt, the clock, the setup) is
//    checked after several moves.
// 2. The example bots: each of examples/cpp/<game> is built by its recipe (g++ for bot.cpp,
//    cmake for CMakeLists.txt, make for a Makefile) with CPLUS_INCLUDE_PATH pointing at the kit,
//    as the arena builds it, and run as a process on its game's transcript (and the dynamite
//    one on the malformed lines): one answer per line, the step echoed, a legal move, exit 0.
// 3. test/noisy.cpp, a bot that prints to stdout and reads stdin, must not corrupt the protocol.
//
// Options: --lib-only (skip 2 and 3), --no-examples (skip 2: the arena's own tests build and play
// every example in its sandbox, which is how scripts/test.sh runs this), --keep (keep the
// scratch folder). The scratch folder is
// <this program>.d (next to the binary, so outside the repository). Exit status 1 on a failure.
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "arena.hpp"

namespace fs = std::filesystem;

namespace {

int failures = 0;
int checks = 0;
int report_fd = 2;  // the test's own report; the kit's log goes elsewhere during the library part

void say(const std::string& text) {
  std::string t = text + "\n";
  if (::write(report_fd, t.data(), t.size()) < 0) std::perror("write");
}

void fail(const std::string& where, const std::string& what) {
  ++failures;
  say("FAIL " + where + ": " + what);
}

bool check(bool ok, const std::string& where, const std::string& what) {
  ++checks;
  if (!ok) fail(where, what);
  return ok;
}

// ---- a small JSON tree of the test's own (independent of the kit's reader) -------------------

struct J {
  enum T { Null, Bool, Num, Str, Arr, Obj } t = Null;
  bool b = false;
  double n = 0;
  std::string s;  // a string, or a number's text
  std::vector<J> a;
  std::vector<std::pair<std::string, J>> o;

  const J* get(const std::string& k) const {
    if (t != Obj) return nullptr;
    for (const auto& [key, v] : o)
      if (key == k) return &v;
    return nullptr;
  }
  std::string str(const std::string& k) const {
    const J* v = get(k);
    return v && v->t == Str ? v->s : "";
  }
  double num(const std::string& k) const {  // a number, or a string holding one; absent: 0
    const J* v = get(k);
    if (!v) return 0;
    if (v->t == Num) return v->n;
    if (v->t == Str) return std::strtod(v->s.c_str(), nullptr);
    return 0;
  }
};

struct JParser {
  std::string_view s;
  std::size_t i = 0;
  void ws() {
    while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  }
  [[noreturn]] void bad(const char* why) { throw std::runtime_error(std::string(why) + " at " + std::to_string(i)); }
  J value() {
    ws();
    if (i >= s.size()) bad("end");
    J v;
    char c = s[i];
    if (c == '{') {
      v.t = J::Obj;
      ++i;
      ws();
      if (i < s.size() && s[i] == '}') return ++i, v;
      for (;;) {
        ws();
        J k = value();
        if (k.t != J::Str) bad("key");
        ws();
        if (i >= s.size() || s[i++] != ':') bad("colon");
        v.o.emplace_back(k.s, value());
        ws();
        if (i >= s.size()) bad("end");
        if (s[i] == ',') { ++i; continue; }
        if (s[i] == '}') { ++i; return v; }
        bad("object");
      }
    }
    if (c == '[') {
      v.t = J::Arr;
      ++i;
      ws();
      if (i < s.size() && s[i] == ']') return ++i, v;
      for (;;) {
        v.a.push_back(value());
        ws();
        if (i >= s.size()) bad("end");
        if (s[i] == ',') { ++i; continue; }
        if (s[i] == ']') { ++i; return v; }
        bad("array");
      }
    }
    if (c == '"') {
      v.t = J::Str;
      ++i;
      while (i < s.size() && s[i] != '"') {
        if (static_cast<unsigned char>(s[i]) < 0x20) bad("control character");
        if (s[i] == '\\') {
          ++i;
          if (i >= s.size()) bad("escape");
          char e = s[i++];
          switch (e) {
            case 'n': v.s += '\n'; break;
            case 't': v.s += '\t'; break;
            case 'r': v.s += '\r'; break;
            case 'b': v.s += '\b'; break;
            case 'f': v.s += '\f'; break;
            case 'u': {
              unsigned cp = static_cast<unsigned>(std::stoul(std::string(s.substr(i, 4)), nullptr, 16));
              i += 4;
              if (cp < 0x80) v.s += static_cast<char>(cp);
              else v.s += "\\u" + std::to_string(cp);  // good enough to compare
              break;
            }
            default: v.s += e;
          }
        } else {
          v.s += s[i++];
        }
      }
      if (i >= s.size()) bad("unterminated string");
      ++i;
      return v;
    }
    if (s.substr(i, 4) == "true") return i += 4, v.t = J::Bool, v.b = true, v;
    if (s.substr(i, 5) == "false") return i += 5, v.t = J::Bool, v;
    if (s.substr(i, 4) == "null") return i += 4, v;
    std::size_t st = i;
    while (i < s.size() && (std::isdigit(static_cast<unsigned char>(s[i])) || s[i] == '-' || s[i] == '+' || s[i] == '.' || s[i] == 'e' || s[i] == 'E')) ++i;
    if (st == i) bad("value");
    v.t = J::Num;
    v.s = std::string(s.substr(st, i - st));
    v.n = std::strtod(v.s.c_str(), nullptr);
    return v;
  }
};

J parse(std::string_view text) {
  JParser p{text};
  J v = p.value();
  p.ws();
  if (p.i != text.size()) p.bad("trailing text");
  return v;
}

std::string show(const J& v) {
  switch (v.t) {
    case J::Null: return "null";
    case J::Bool: return v.b ? "true" : "false";
    case J::Num: return v.s;
    case J::Str: return "\"" + v.s + "\"";
    case J::Arr: {
      std::string out = "[";
      for (std::size_t k = 0; k < v.a.size(); ++k) out += (k ? "," : "") + show(v.a[k]);
      return out + "]";
    }
    case J::Obj: {
      std::string out = "{";
      for (std::size_t k = 0; k < v.o.size(); ++k) out += (k ? ",\"" : "\"") + v.o[k].first + "\":" + show(v.o[k].second);
      return out + "}";
    }
  }
  return "?";
}

// glob matches text against a pattern where '*' is any run of characters.
bool glob(std::string_view pat, std::string_view text) {
  std::size_t star = pat.find('*');
  if (star == std::string_view::npos) return pat == text;
  std::string_view head = pat.substr(0, star);
  if (text.substr(0, head.size()) != head) return false;
  std::string_view rest = pat.substr(star + 1);
  for (std::size_t k = head.size(); k <= text.size(); ++k)
    if (glob(rest, text.substr(k))) return true;
  return false;
}

// same: equal JSON (key order aside). contains: every key of want is in got with a value it
// contains; a string of want is a glob pattern.
bool same(const J& x, const J& y) {
  if (x.t != y.t) return false;
  switch (x.t) {
    case J::Null: return true;
    case J::Bool: return x.b == y.b;
    case J::Num: return x.n == y.n;
    case J::Str: return x.s == y.s;
    case J::Arr:
      if (x.a.size() != y.a.size()) return false;
      for (std::size_t k = 0; k < x.a.size(); ++k)
        if (!same(x.a[k], y.a[k])) return false;
      return true;
    case J::Obj:
      if (x.o.size() != y.o.size()) return false;
      for (const auto& [k, v] : x.o) {
        const J* w = y.get(k);
        if (!w || !same(v, *w)) return false;
      }
      return true;
  }
  return false;
}

bool contains(const J& got, const J& want) {
  if (want.t == J::Str) return got.t == J::Str && glob(want.s, got.s);
  if (want.t == J::Obj) {
    if (got.t != J::Obj) return false;
    for (const auto& [k, v] : want.o) {
      const J* g = got.get(k);
      if (!g || !contains(*g, v)) return false;
    }
    return true;
  }
  return same(got, want);
}

// ---- transcripts -----------------------------------------------------------------------------

struct Entry {
  int line = 0;          // in the transcript file
  std::string request;   // the line for the bot
  char kind = 0;         // '=' exact answer, '~' contained answer
  std::string expected;
};

std::vector<Entry> load(const fs::path& file) {
  std::ifstream in(file);
  if (!in) throw std::runtime_error("cannot read " + file.string());
  std::vector<Entry> out;
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    ++n;
    if (line.rfind("> ", 0) == 0) {
      out.push_back(Entry{n, line.substr(2), 0, ""});
    } else if (line.rfind("<~ ", 0) == 0 || line.rfind("< ", 0) == 0) {
      if (out.empty() || out.back().kind) throw std::runtime_error(file.string() + ":" + std::to_string(n) + ": an answer without its request");
      bool sub = line[1] == '~';
      out.back().kind = sub ? '~' : '=';
      out.back().expected = line.substr(sub ? 3 : 2);
    } else if (!line.empty() && line[0] != '#') {
      throw std::runtime_error(file.string() + ":" + std::to_string(n) + ": a line that is not '> ', '< ', '<~ ' or '#'");
    }
  }
  for (const Entry& e : out)
    if (!e.kind) throw std::runtime_error(file.string() + ":" + std::to_string(e.line) + ": a request without its answer");
  return out;
}

// ---- the test players: the protocol document's example players -------------------------------

template <class S>
struct Record {
  std::vector<S> seen;            // the state at every move
  std::vector<double> time_left;  // state.time_left() at every move
  std::optional<S> final_state;
  arena::Result result = arena::Result::Unspecified;
  double score = -1;
  int starts = 0;
};

bool starts_with(const std::string& s, std::string_view p) { return s.rfind(p, 0) == 0; }

namespace dyn = arena::dynamite;
std::map<std::string, Record<dyn::State>> dynamite_log;

// cycler: R P D S W in turn, by round.
struct Cycler : dyn::Player {
  void start(const dyn::Setup& s) override {
    if (s.match_id == "throw-start") throw std::logic_error("no seat for you");
    dynamite_log[s.match_id].starts++;
  }
  dyn::Move move(const dyn::State& s) override {
    auto& r = dynamite_log[s.setup.match_id];
    r.seen.push_back(s);
    r.time_left.push_back(s.time_left());
    if (starts_with(s.setup.match_id, "throw") && s.round % 2 == 1)
      throw std::runtime_error("boom at round " + std::to_string(s.round));
    if (starts_with(s.setup.match_id, "invalid")) return static_cast<dyn::Move>(42);
    static constexpr dyn::Move seq[] = {dyn::Move::Rock, dyn::Move::Paper, dyn::Move::Dynamite, dyn::Move::Scissors,
                                        dyn::Move::Water};
    return seq[(s.round + 4) % 5];
  }
  void end(const arena::Outcome<dyn::State>& o) override {
    auto& r = dynamite_log[o.state.setup.match_id];
    r.final_state = o.state;
    r.result = o.result;
    r.score = o.score;
    if (starts_with(o.state.setup.match_id, "throw")) throw std::runtime_error("end hook failed");
  }
};

namespace fin = arena::finger;
std::map<std::string, Record<fin::State>> finger_log;

// righty: hits with its right hand when it can, at the opponent's right hand when it can.
struct Righty : fin::Player {
  fin::Move move(const fin::State& s) override {
    auto& r = finger_log[s.setup.match_id];
    r.seen.push_back(s);
    r.time_left.push_back(s.time_left());
    if (starts_with(s.setup.match_id, "throw")) throw 42;
    if (starts_with(s.setup.match_id, "invalid")) return fin::Move{static_cast<fin::Kind>(9)};
    if (starts_with(s.setup.match_id, "switch")) return fin::Switch(1, 2);
    const int own[2] = {s.own_left, s.own_right};
    const int opp[2] = {s.opponent_left, s.opponent_right};
    for (int from : {1, 0})
      for (int to : {1, 0})
        if (own[from] > 0 && opp[to] > 0) return fin::kHits[static_cast<std::size_t>(from * 2 + to)];
    return fin::Switch(0, 0);
  }
  void end(const arena::Outcome<fin::State>& o) override {
    auto& r = finger_log[o.state.setup.match_id];
    r.final_state = o.state;
    r.result = o.result;
    r.score = o.score;
  }
};

namespace bid = arena::bidding;
std::map<std::string, Record<bid::State>> bidding_log;

// steady: always 12 (what it has when it has less).
struct Steady : bid::Player {
  std::int64_t bid(const bid::State& s) override {
    auto& r = bidding_log[s.setup.match_id];
    r.seen.push_back(s);
    r.time_left.push_back(s.time_left());
    if (starts_with(s.setup.match_id, "throw")) throw std::string("string thrown");
    return std::min(12, s.own_money);
  }
  void end(const arena::Outcome<bid::State>& o) override {
    auto& r = bidding_log[o.state.setup.match_id];
    r.final_state = o.state;
    r.result = o.result;
    r.score = o.score;
  }
};

namespace auc = arena::auction;
std::map<std::string, Record<auc::State>> auction_log;

// ann: always 7.
struct Ann : auc::Player {
  double bid(const auc::State& s) override {
    auto& r = auction_log[s.setup.match_id];
    r.seen.push_back(s);
    r.time_left.push_back(s.time_left());
    if (starts_with(s.setup.match_id, "throw")) throw "c-string thrown";
    if (starts_with(s.setup.match_id, "nan")) return std::nan("");
    if (starts_with(s.setup.match_id, "frac")) return 2.5;
    return 7;
  }
  void end(const arena::Outcome<auc::State>& o) override {
    auto& r = auction_log[o.state.setup.match_id];
    r.final_state = o.state;
    r.result = o.result;
    r.score = o.score;
  }
};

namespace rtv = arena::realtv;
std::map<int, Record<rtv::Context>> realtv_log;  // by seat
int weakling_instances = 0;                       // a static shared by the instances, as in the seed

// Weakling: weaker than 5, it betrays on day 1 (votes for itself); otherwise it votes for the
// weakest other active player (among the tied in a tie vote).
struct Weakling : rtv::Player {
  int strength = -1;
  void start(const rtv::Setup& s) override {
    strength = s.strength;
    ++weakling_instances;
  }
  rtv::Vote vote_for_elimination(const rtv::Context& c) override {
    auto& r = realtv_log[c.setup.seat];
    r.seen.push_back(c);
    r.time_left.push_back(c.time_left());
    if (starts_with(c.setup.match_id, "throw")) return std::vector<rtv::Vote>{}.at(3);
    if (starts_with(c.setup.match_id, "invalid")) return std::string("\xff\xfe");
    if (strength < 5 && c.day == 1) return c.setup.id;
    return rtv::weakest(c.active_players, c.own_id);
  }
  rtv::Vote vote_for_tie(const rtv::Context& c) override {
    auto& r = realtv_log[c.setup.seat];
    r.seen.push_back(c);
    r.time_left.push_back(c.time_left());
    return rtv::weakest(c.current_ties, c.own_id);
  }
  void end(const arena::Outcome<rtv::Context>& o) override {
    auto& r = realtv_log[o.state.setup.seat];
    r.final_state = o.state;
    r.result = o.result;
    r.score = o.score;
  }
};

namespace anyg = arena::any;
std::map<std::string, Record<anyg::State>> coin_log;

// Coin plays "coin", a game the kit has no header for: heads in odd rounds, tails in even ones.
struct Coin : anyg::Player {
  void start(const anyg::Setup& s) override { coin_log[s.match_id].starts++; }
  arena::json::Value act(const anyg::State& s) override {
    auto& r = coin_log[s.setup.match_id];
    r.seen.push_back(s);
    r.time_left.push_back(s.time_left());
    if (starts_with(s.setup.match_id, "invalid")) return arena::json::Value("HEADS");
    bool odd = s.observation["round"].as_int64() % 2 == 1;
    return arena::json::Value::object({{"call", odd ? "COIN_CALL_HEADS" : "COIN_CALL_TAILS"}});
  }
  void end(const arena::Outcome<anyg::State>& o) override {
    auto& r = coin_log[o.state.setup.match_id];
    r.final_state = o.state;
    r.result = o.result;
    r.score = o.score;
  }
};

arena::Bot test_bot(const std::string& game) {
  arena::Bot b{.name = "", .author = "arena selftest", .version = "", .games = {}};
  if (game == "dynamite" || game == "errors" || game == "malformed") b.games.push_back(dyn::play<Cycler>());
  if (game == "finger" || game == "errors") b.games.push_back(fin::play<Righty>());
  if (game == "bidding" || game == "errors") b.games.push_back(bid::play<Steady>());
  if (game == "auction" || game == "errors") b.games.push_back(auc::play<Ann>());
  if (game == "realtv" || game == "errors") b.games.push_back(rtv::play<Weakling>());
  if (game == "coin") b.games.push_back(anyg::play<Coin>("coin"));
  std::map<std::string, std::string> names = {{"dynamite", "cycler"}, {"errors", "cycler"}, {"malformed", "cycler"},
                                              {"finger", "righty"},   {"bidding", "steady"}, {"auction", "ann"},
                                              {"realtv", "Weakling"}, {"coin", "coin"}};
  b.name = names[game];
  return b;
}

// ---- checking one answer ---------------------------------------------------------------------

std::string request_call(const J& req) {
  for (const char* c : {"describe", "start", "act", "end"})
    if (req.get(c)) return c;
  return "";
}

// legal checks an example bot's action against the request it answers.
void check_legal(const std::string& where, const std::string& game, const J& act, const J& answer) {
  const J* obs = act.get(game);
  const J* a = answer.get(game);
  if (!check(obs && a && a->t == J::Obj, where, "no " + game + " action in " + show(answer))) return;
  if (game == "dynamite") {
    std::string m = a->str("move");
    bool ok = m == "DYNAMITE_MOVE_ROCK" || m == "DYNAMITE_MOVE_PAPER" || m == "DYNAMITE_MOVE_SCISSORS" ||
              m == "DYNAMITE_MOVE_DYNAMITE" || m == "DYNAMITE_MOVE_WATER";
    check(ok, where, "not a throw: " + show(answer));
    check(m != "DYNAMITE_MOVE_DYNAMITE" || obs->num("ownDynamiteLeft") > 0, where, "dynamite without any left");
  } else if (game == "finger") {
    int own[2] = {static_cast<int>(obs->num("ownLeft")), static_cast<int>(obs->num("ownRight"))};
    int opp[2] = {static_cast<int>(obs->num("opponentLeft")), static_cast<int>(obs->num("opponentRight"))};
    std::string m = a->str("move");
    static const std::map<std::string, std::pair<int, int>> hits = {{"FINGER_MOVE_LEFT_TO_LEFT", {0, 0}},
                                                                    {"FINGER_MOVE_LEFT_TO_RIGHT", {0, 1}},
                                                                    {"FINGER_MOVE_RIGHT_TO_LEFT", {1, 0}},
                                                                    {"FINGER_MOVE_RIGHT_TO_RIGHT", {1, 1}}};
    if (auto h = hits.find(m); h != hits.end()) {
      check(own[h->second.first] > 0 && opp[h->second.second] > 0, where, "illegal hit " + show(answer));
    } else if (m == "FINGER_MOVE_SWITCH") {
      int l = static_cast<int>(a->num("switchLeft")), r = static_cast<int>(a->num("switchRight"));
      bool ok = l >= 0 && r >= 0 && l <= 5 && r <= 5 && l + r == own[0] + own[1] && !(l == own[0] && r == own[1]) &&
                !(l == own[1] && r == own[0]);
      check(ok, where, "illegal switch " + show(answer));
    } else {
      check(false, where, "not a finger move: " + show(answer));
    }
  } else if (game == "bidding") {
    const J* b = a->get("bid");
    check(!b || b->t == J::Str, where, "a bid must be an int64 string: " + show(answer));
    double v = a->num("bid"), money = obs->num("ownMoney");
    check(v == std::floor(v) && v >= std::min(1.0, money) && v <= money, where,
          "illegal bid " + show(answer) + " with " + std::to_string(money));
  } else if (game == "auction") {
    double v = a->num("bid"), money = obs->num("ownMoney");
    check(v == std::floor(v) && v >= 0 && v <= money, where, "a bid that counts as 0 or is over the money: " + show(answer));
  } else if (game == "realtv") {
    std::string vote = a->str("voteId");
    bool tie = obs->str("decision") == "REALTV_DECISION_TIE";
    const J* pool = obs->get(tie ? "currentTies" : "activePlayers");
    check(pool && pool->get(vote) && vote != obs->str("ownId"), where, "a vote that betrays or is ignored: " + show(answer));
  }
}

// check_answer checks one answer. example: the name of the example game being run (its
// actions are checked for legality instead of equality), or "" for the library's players.
void check_answer(const std::string& where, const Entry& e, const std::string& answer, const std::string& example) {
  ++checks;
  if (answer.find('\n') != std::string::npos) return fail(where, "the answer holds a newline");
  J got, want;
  try {
    got = parse(answer);
  } catch (const std::exception& x) {
    return fail(where, "the answer is not JSON (" + std::string(x.what()) + "): " + answer);
  }
  if (got.t != J::Obj) return fail(where, "the answer is not an object: " + answer);
  try {
    want = parse(e.expected);
  } catch (const std::exception& x) {
    return fail(where, "the transcript's expected answer is not JSON: " + e.expected);
  }
  std::optional<J> req;
  try {
    req = parse(e.request);
  } catch (const std::exception&) {
  }
  std::string call = req ? request_call(*req) : "";
  if (call == "act" && got.get("error") == nullptr) {
    // An action: exactly one member besides step, and the step echoed.
    int actions = 0;
    for (const auto& [k, v] : got.o)
      if (k != "step") ++actions, check(v.t == J::Obj, where, "action is not an object: " + answer);
    check(actions == 1, where, "not exactly one action: " + answer);
  }
  if (call == "act" && got.get("error") && got.o.size() > 2) fail(where, "an error answer with more: " + answer);
  if (!example.empty() && call == "describe" && req->get("describe")->t == J::Obj) {
    check(got.str("sdk") == "cpp/0.1.0", where, "sdk is not cpp/0.1.0: " + answer);
    check(!got.str("name").empty(), where, "no name: " + answer);
    const J* games = got.get("games");
    check(games && games->t == J::Arr && games->a.size() == 1 && games->a[0].s == example, where, "games is not [" + example + "]: " + answer);
    return;
  }
  if (!example.empty() && call == "act" && !want.get("error")) {
    check(!got.get("error"), where, "an error instead of a move: " + answer);
    check(got.str("step") == want.str("step"), where, "step not echoed: " + answer);
    if (!got.get("error")) check_legal(where, example, *req->get("act"), got);
    return;
  }
  if (e.kind == '=') {
    check(same(got, want), where, "got " + answer + "\n     want " + e.expected);
  } else {
    check(contains(got, want), where, "got " + answer + "\n     want at least " + e.expected);
  }
}

// ---- 1. the library --------------------------------------------------------------------------

std::ostream& operator<<(std::ostream& o, dyn::Move m) { return o << dyn::to_char(m); }
std::ostream& operator<<(std::ostream& o, arena::Result r) { return o << static_cast<int>(r); }
std::ostream& operator<<(std::ostream& o, const fin::Move& m) { return o << fin::to_string(m); }
std::ostream& operator<<(std::ostream& o, bid::Side s) { return o << static_cast<int>(s); }
std::ostream& operator<<(std::ostream& o, rtv::Decision d) { return o << static_cast<int>(d); }

template <class T, class U>
void eq(const std::string& where, const T& got, const U& want, const std::string& what) {
  std::ostringstream g, w;
  g << got;
  w << want;
  check(got == want, where, what + ": got " + g.str() + ", want " + w.str());
}

std::string rounds_text(const std::vector<dyn::Round>& rs) {
  std::string out;
  for (const auto& r : rs) out += std::string(1, dyn::to_char(r.own)) + dyn::to_char(r.opponent) + " ";
  return out;
}

void check_clock(const std::string& where, const std::vector<double>& tl) {
  for (double t : tl) check(t > 0.5 && t <= 1.0, where, "time_left() " + std::to_string(t) + " is not within the 1 s deadline");
}

void check_dynamite() {
  const std::string w = "dynamite history";
  auto& r = dynamite_log["m-dynamite"];
  if (!check(r.seen.size() == 6, w, "moves seen: " + std::to_string(r.seen.size()) + ", want 6")) return;
  const dyn::State& s1 = r.seen[0];
  eq(w, s1.setup.target_score, 1000, "target_score");
  eq(w, s1.setup.dynamite_per_player, 100, "dynamite_per_player");
  eq(w, s1.setup.players.size(), 2u, "players");
  eq(w, s1.setup.players[1], "rocky", "players[1]");
  eq(w, s1.setup.deadline, 1.0, "deadline");
  eq(w, s1.rounds.size(), 0u, "rounds at round 1");
  eq(w, rounds_text(r.seen[2].rounds), "RR PR ", "rounds at round 3 (read from proto names and an enum number)");
  eq(w, r.seen[2].own_score, 2, "own_score at round 3");
  eq(w, r.seen[0].cpu_clock, false, "an older host: wall clock");
  eq(w, r.seen[0].budget, 1.0, "an older host: the deadline is the budget");
  eq(w, r.seen[0].wall_cap, 1.0, "an older host: the deadline is the wall cap");
  eq(w, r.seen[2].cpu_clock, true, "clock_mode CPU by number");
  eq(w, r.seen[2].budget, 1.0005, "budget_us");
  eq(w, r.seen[2].bank_remaining, 0.003, "bank_remaining_us");
  eq(w, r.seen[2].wall_cap, 3.001, "wall_cap_ms");
  eq(w, rounds_text(r.seen[3].rounds), "RR PR ", "rounds after the repeated request");
  eq(w, rounds_text(r.seen[4].rounds), "RR PR DR ", "rounds at round 4");
  eq(w, r.seen[4].own_dynamite_left, 99, "own_dynamite_left at round 4");
  eq(w, rounds_text(r.seen[5].rounds), "RR PR DR SR ", "rounds at round 5");
  eq(w, r.seen[5].opponent_score, 1, "opponent_score at round 5");
  check(r.final_state.has_value(), w, "end() not called");
  if (r.final_state) eq(w, rounds_text(r.final_state->rounds), "RR PR DR SR WR ", "rounds at the end");
  eq(w, r.result, arena::Result::Win, "result");
  eq(w, r.score, 1001.0, "score");
  check_clock(w, r.time_left);
  // The seat with escapes in its match id (malformed.jsonl).
  auto& m = dynamite_log["m-1"];
  if (check(m.seen.size() == 3, "malformed history", "moves of m-1: " + std::to_string(m.seen.size()))) {
    eq("malformed history", m.seen[0].setup.players[0], "\u00e9\U0001F600", "a player name with escapes");
    eq("malformed history", m.seen[2].rounds.size(), 2u, "rounds of m-1");
    eq("malformed history", m.seen[2].rounds[1].opponent, dyn::Move::Unspecified, "an unknown enum name reads as UNSPECIFIED");
  }
  eq("malformed history", m.result, arena::Result::Draw, "result of m-1");
  eq("malformed history", m.score, 0.5, "score of m-1 (a double given as a string)");
  // errors.jsonl: the seat lived on after the exception, and end() was called.
  auto& t = dynamite_log["throw-d"];
  eq("errors history", t.seen.size(), 2u, "moves of throw-d");
  eq("errors history", t.result, arena::Result::Loss, "result of throw-d");
}

void check_finger() {
  const std::string w = "finger history";
  auto& r = finger_log["m-finger"];
  if (!check(r.seen.size() == 5, w, "moves seen: " + std::to_string(r.seen.size()) + ", want 5")) return;
  const fin::State& a = r.seen[0];
  eq(w, a.setup.seat, 1, "seat");
  eq(w, a.setup.own_name, "righty", "own_name");
  eq(w, a.setup.games, 3, "games");
  eq(w, a.history.size(), 1u, "history at step 2");
  eq(w, a.history[0].move, fin::LeftToRight, "lefty's first move");
  eq(w, a.history[0].own, false, "lefty's move is not own");
  const fin::State& c = r.seen[2];
  eq(w, c.history.size(), 5u, "history at step 6");
  if (c.history.size() == 5) {
    eq(w, c.history[1].move, fin::RightToRight, "history[1]");
    eq(w, c.history[1].own, true, "history[1].own");
    eq(w, c.history[3].move, fin::LeftToRight, "history[3]");
    eq(w, c.history[4].move, fin::LeftToLeft, "history[4] (an enum number)");
    eq(w, c.history[4].player, "lefty", "history[4].player");
  }
  eq(w, c.own_right, 0, "own_right at step 6 (absent)");
  eq(w, c.opponent_right, 4, "opponent_right at step 6");
  const fin::State& d = r.seen[3];
  eq(w, d.history.size(), 0u, "history on a new game");
  eq(w, d.game, 2, "game");
  eq(w, d.started, true, "started");
  eq(w, d.games_won, 1, "games_won");
  const fin::State& e = r.seen[4];
  eq(w, e.history.size(), 2u, "history at step 10");
  if (e.history.size() == 2) eq(w, e.history[1].move, fin::Switch(0, 3), "a switch with switchLeft absent");
  eq(w, e.legal(fin::RightToLeft), false, "legal(): hitting a hand of 0");
  eq(w, e.legal(fin::Switch(2, 0)), true, "legal(): a switch");
  eq(w, e.legal(fin::Switch(1, 1)), false, "legal(): a switch to the same hands");
  eq(w, e.legal_moves().size(), 4u, "legal_moves() with hands 1 1 against 0 3");
  eq(w, r.result, arena::Result::Win, "result");
  eq(w, r.score, 2.0, "score");
  check_clock(w, r.time_left);
}

void check_bidding() {
  const std::string w = "bidding history";
  auto& r = bidding_log["m-bidding"];
  if (!check(r.seen.size() == 7, w, "moves seen: " + std::to_string(r.seen.size()) + ", want 7")) return;
  auto bids = [](const std::vector<std::int64_t>& v) {
    std::string out;
    for (auto b : v) out += std::to_string(b) + " ";
    return out;
  };
  eq(w, r.seen[0].setup.start_money, 100, "start_money");
  eq(w, r.seen[0].side, bid::Side::A, "side");
  eq(w, r.seen[0].own_bids.size(), 0u, "bids at round 1");
  eq(w, bids(r.seen[1].own_bids) + "/ " + bids(r.seen[1].opponent_bids), "12 / 10 ", "bids at round 2");
  eq(w, bids(r.seen[2].own_bids) + "/ " + bids(r.seen[2].opponent_bids), "12 12 / 10 12 ", "bids at round 3");
  eq(w, r.seen[2].draw_advantage, false, "draw_advantage at round 3 (absent)");
  eq(w, bids(r.seen[3].own_bids), "12 12 ", "bids after the repeated request");
  eq(w, bids(r.seen[4].own_bids) + "/ " + bids(r.seen[4].opponent_bids), "12 12 12 / 10 12 14 ", "bids at round 4");
  eq(w, r.seen[4].places_to_win(), 4, "places_to_win() at round 4");
  eq(w, r.seen[5].own_bids.size(), 0u, "bids on a new game");
  eq(w, r.seen[5].side, bid::Side::B, "side in game 2");
  eq(w, r.seen[5].places_to_win(), 5, "places_to_win() as B");
  eq(w, bids(r.seen[6].own_bids) + "/ " + bids(r.seen[6].opponent_bids), "12 / 10 ", "bids in game 2 (an int32 as a string)");
  eq(w, r.result, arena::Result::Loss, "result");
  eq(w, r.score, 0.0, "score (absent)");
  check_clock(w, r.time_left);
}

void check_auction() {
  const std::string w = "auction history";
  auto& r = auction_log["m-auction"];
  if (!check(r.seen.size() == 4, w, "moves seen: " + std::to_string(r.seen.size()) + ", want 4")) return;
  const auc::State& a = r.seen[0];
  eq(w, a.setup.auction_items.size(), 12u, "auction_items");
  eq(w, a.setup.own_name, "ann", "own_name");
  eq(w, a.setup.clock, 120.0, "clock");
  eq(w, a.clock_remaining, 120.0, "clock_remaining");
  eq(w, a.rounds.size(), 0u, "rounds at item 0");
  eq(w, a.item, "t1", "item at item 0");
  eq(w, a.winning_bid, -1, "winning_bid at item 0");
  eq(w, a.wealth_table.at("cy"), 100, "wealth_table");
  eq(w, r.seen[1].rounds.size(), 1u, "rounds at item 1");
  eq(w, r.seen[2].rounds.size(), 1u, "rounds after the repeated request");
  eq(w, r.seen[2].owned("bob", "t1"), 1, "bob's t1 after the repeated request");
  const auc::State& c = r.seen[3];
  eq(w, c.rounds.size(), 2u, "rounds at item 2");
  if (c.rounds.size() == 2) {
    check(c.rounds[0] == auc::RoundResult{0, "t1", "bob", 20}, w, "round 0");
    check(c.rounds[1] == auc::RoundResult{1, "t0", "ann", 7}, w, "round 1");
  }
  eq(w, c.owned("ann", "t0"), 1, "ann's t0");
  eq(w, c.own_collection().size(), 1u, "own_collection()");
  eq(w, c.needs("ann", "t0"), 1, "needs()");
  eq(w, c.own_remain_time(), 119.9, "own_remain_time()");
  eq(w, c.remain_time.at("cy"), 120.0, "remain_time given as a string");
  eq(w, c.wealth_table.at("ann"), 93, "wealth_table given as a number");
  eq(w, c.own_money, 93, "own_money");
  check(r.final_state.has_value(), w, "end() not called");
  if (r.final_state) {
    const auc::State& f = *r.final_state;
    eq(w, f.rounds.size(), 3u, "rounds at the end");
    eq(w, f.owned("bob", "t1"), 2, "bob's t1 at the end");
    eq(w, f.finished, true, "finished");
    eq(w, f.game_winner, "bob", "game_winner");
    eq(w, f.item, "", "item once finished");
  }
  eq(w, r.result, arena::Result::Loss, "result");
  check_clock(w, r.time_left);
}

void check_realtv() {
  const std::string w = "realtv history";
  auto& ten = realtv_log[10];
  auto& three = realtv_log[3];
  if (!check(ten.seen.size() == 3 && three.seen.size() == 1, w, "votes seen by seats 10 and 3")) return;
  eq(w, ten.seen[0].setup.strength, 10, "seat 10's strength");
  eq(w, three.seen[0].setup.strength, 3, "seat 3's strength");
  eq(w, three.seen[0].own_id, "A9V4TVOEGQ", "seat 3's own_id");
  eq(w, ten.seen[0].active_players.size(), 12u, "players on day 1");
  eq(w, ten.seen[0].active_players.at("WIZFAZZAR7").strength, 0, "a strength absent");
  const rtv::Context& c = ten.seen[1];
  eq(w, c.day, 2, "day");
  eq(w, c.decision, rtv::Decision::Elimination, "decision");
  eq(w, c.game.total_bots, 1, "game.total_bots");
  eq(w, c.active_players.size(), 6u, "active players on day 2");
  eq(w, c.betrayers.size(), 6u, "betrayers on day 2");
  eq(w, c.betrayers.at("S8NJSG2V0V").name, "BotPareto", "the filler's name");
  eq(w, c.active_players.at("05RT4VQLKK").previous_moves.size(), 1u, "previous_moves");
  eq(w, c.active_players.at("05RT4VQLKK").previous_moves[0].first_vote, "S8NJSG2V0V", "previous first vote");
  eq(w, c.active_players.at("05RT4VQLKK").score, 3.0, "score");
  check(c.me() && c.me()->strength == 10, w, "me()");
  eq(w, c.own_score, 3.0, "own_score");
  check(rtv::strongest(c.active_players) && rtv::strongest(c.active_players)->id == "6YO7JTF9TS", w, "strongest()");
  const rtv::Context& t = ten.seen[2];
  eq(w, t.decision, rtv::Decision::Tie, "tie decision");
  eq(w, t.current_ties.size(), 2u, "current_ties");
  eq(w, t.betrayers.size(), 0u, "betrayers absent in the tie request");
  eq(w, ten.score, 118.0, "seat 10's score");
  eq(w, three.score, 50.0, "seat 3's score");
  eq(w, three.result, arena::Result::Win, "seat 3's result");
  check_clock(w, ten.time_left);
}

// check_coin: the any-game path hands the player the setup, the step, the clock and each
// observation as they came, and the final observation to end().
void check_coin() {
  const std::string w = "coin.jsonl (library)";
  auto& r = coin_log["m-coin"];
  eq(w, r.starts, 1, "start() calls");
  if (!check(r.seen.size() == 3, w, "act() calls: " + std::to_string(r.seen.size()))) return;
  const anyg::State& s = r.seen[1];
  eq(w, s.setup.game, std::string("coin"), "setup game");
  eq(w, s.setup.setup["rounds"].as_int64(), std::int64_t{3}, "setup message");
  eq(w, s.setup.match_id + " " + std::to_string(s.setup.seat) + " " + s.setup.players.at(0) + " " + s.setup.players.at(1),
     std::string("m-coin 1 heads tails"), "seat facts");
  eq(w, s.setup.deadline, 1.0, "deadline");
  eq(w, s.step, std::int64_t{2}, "step");
  eq(w, s.observation.dump(), std::string(R"({"round":2,"lastOpponent":"COIN_CALL_TAILS"})"), "observation as it came");
  eq(w, s.observation["last_opponent"].as_string(), std::string("COIN_CALL_TAILS"), "a field by its proto name");
  eq(w, s.budget, 1.0, "the move's budget");
  check_clock(w, r.time_left);
  if (!check(r.final_state.has_value(), w, "end() not called")) return;
  eq(w, r.result, arena::Result::Win, "result");
  eq(w, r.score, 2.0, "score");
  eq(w, r.final_state->observation["ownScore"].as_int64(), std::int64_t{2}, "final observation");

  // The value type itself: numbers keep their text, protojson's strings and names read.
  arena::json::Value v = arena::json::Value::parse(R"({"big":"9007199254740993","n":9007199254740993,"d":"NaN","x":[1,true,null,{"a":"é"}]})");
  eq(w, v["big"].as_int64(), std::int64_t{9007199254740993}, "int64 as a string");
  eq(w, v["n"].as_int64(), std::int64_t{9007199254740993}, "int64 as a number");
  check(std::isnan(v["d"].as_double()), w, "NaN as a string");
  eq(w, v.dump(), std::string("{\"big\":\"9007199254740993\",\"n\":9007199254740993,\"d\":\"NaN\",\"x\":[1,true,null,{\"a\":\"\xc3\xa9\"}]}"),
     "written back");
  eq(w, v["missing"].is_null() && v["x"]["a"].is_null(), true, "absent members read as null");
  eq(w, arena::json::Value::object({{"a", 1}, {"b", 0.5}, {"c", "x"}, {"d", arena::json::Value::array({false})}}).dump(),
     std::string(R"({"a":1,"b":0.5,"c":"x","d":[false]})"), "values built in code");
}

void run_library(const fs::path& dir) {
  for (const char* name : {"dynamite", "finger", "bidding", "auction", "realtv", "errors", "malformed", "coin"}) {
    fs::path file = dir / "transcripts" / (std::string(name) + ".jsonl");
    std::vector<Entry> entries = load(file);
    arena::detail::Server server(test_bot(name));
    for (const Entry& e : entries) {
      std::string where = file.filename().string() + ":" + std::to_string(e.line) + " (library)";
      std::string answer = server.handle(e.request, arena::SteadyClock::now());
      check_answer(where, e, answer, "");
    }
  }
  check_dynamite();
  check_finger();
  check_bidding();
  check_auction();
  check_realtv();
  check_coin();
  eq("realtv statics", weakling_instances, 4, "instances started (a static shared by all)");

  // The name defaults to the player's class name.
  arena::detail::Server unnamed(arena::Bot{.name = "", .author = "", .version = "", .games = {dyn::play<Cycler>()}});
  std::string d = unnamed.handle(R"({"describe":{}})", arena::SteadyClock::now());
  check(d == R"({"name":"Cycler","games":["dynamite"],"sdk":"cpp/0.1.0"})", "describe (library)", "default name: " + d);

  // JSON details of the kit: text made valid, numbers.
  std::string out;
  arena::json::append_string(out, "a\"b\\c\n\x01\xff\xc3\xa9");
  check(out == "\"a\\\"b\\\\c\\n\\u0001\xEF\xBF\xBD\xc3\xa9\"", "json (library)", "append_string: " + out);
  out.clear();
  arena::json::append_double(out, 0.1);
  out += ' ';
  arena::json::append_double(out, -1e300);
  out += ' ';
  arena::json::append_double(out, -std::numeric_limits<double>::infinity());
  check(out == "0.1 -1e+300 \"-Infinity\"", "json (library)", "append_double: " + out);
  for (std::string_view bad : {"1e999", "01", "-", "1.", ".5", "+1", "nan", "\"1e999\""}) {
    arena::json::Reader r(bad);
    bool threw = false;
    try {
      r.number();
      r.finish();
    } catch (const arena::json::Error&) {
      threw = true;
    }
    check(threw, "json (library)", "accepted the bad number " + std::string(bad));
  }
  for (auto [text, want] : std::vector<std::pair<std::string_view, double>>{{"1e-999", 0}, {"\"-Infinity\"", -INFINITY}, {"-0.25", -0.25}, {"12", 12}}) {
    arena::json::Reader r(text);
    double v = r.number();
    check(v == want, "json (library)", "read " + std::string(text) + " as " + std::to_string(v));
  }
  check(arena::json::name_is("ownDynamiteLeft", "own_dynamite_left") && arena::json::name_is("own_dynamite_left", "own_dynamite_left") &&
            !arena::json::name_is("ownDynamiteleft", "own_dynamite_left") && !arena::json::name_is("own", "own_dynamite_left"),
        "json (library)", "name_is");
}

// ---- 2 and 3. the example bots and the noisy bot, as processes ---------------------------------

int shell(const std::string& cmd) {
  int st = std::system(cmd.c_str());
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}

std::string quote(const fs::path& p) {
  std::string s = p.string(), out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// build builds the folder's copy in work by the language's recipe; returns the executable.
std::optional<fs::path> build(const fs::path& src, const fs::path& work, const std::string& label) {
  fs::remove_all(work);
  fs::create_directories(work);
  fs::copy(src, work, fs::copy_options::recursive);
  fs::path log = work.parent_path() / (label + ".build.log");
  std::string cd = "cd " + quote(work) + " && ";
  std::string cmd;
  fs::path exe;
  if (fs::exists(work / "CMakeLists.txt")) {
    if (shell("cmake --version >/dev/null 2>&1") == 0) {
      cmd = cd + "cmake -S . -B build >" + quote(log) + " 2>&1 && cmake --build build >>" + quote(log) + " 2>&1";
      exe = work / "build" / "bot";
    } else {
      say("note: no cmake here; " + label + " is built with g++ instead");
      cmd = cd + "g++ -O2 -std=c++20 -o bot *.cpp >" + quote(log) + " 2>&1";
      exe = work / "bot";
    }
  } else if (fs::exists(work / "Makefile")) {
    if (shell("make --version >/dev/null 2>&1") == 0) {
      cmd = cd + "make >" + quote(log) + " 2>&1";
    } else {
      say("note: no make here; " + label + " is built with g++ instead");
      cmd = cd + "g++ -O2 -std=c++20 -o bot *.cpp >" + quote(log) + " 2>&1";
    }
    exe = work / "bot";
  } else {
    cmd = cd + "g++ -O2 -std=c++20 -o bot *.cpp >" + quote(log) + " 2>&1";
    exe = work / "bot";
  }
  if (shell(cmd) != 0 || !fs::exists(exe)) {
    fail(label + " build", "failed:\n" + slurp(log));
    return std::nullopt;
  }
  return exe;
}

// play runs exe on the transcript (its last line without a newline) and checks every answer.
void play(const fs::path& exe, const fs::path& transcript, const std::string& game, const fs::path& scratch,
          const std::string& label, std::string* stderr_text = nullptr) {
  std::vector<Entry> entries = load(transcript);
  fs::path in = scratch / (label + ".in"), out = scratch / (label + ".out"), err = scratch / (label + ".err");
  {
    std::ofstream f(in, std::ios::binary);
    for (std::size_t k = 0; k < entries.size(); ++k) f << entries[k].request << (k + 1 < entries.size() ? "\n" : "");
  }
  int rc = shell("cd " + quote(exe.parent_path()) + " && ARENA_STDIO=1 " + quote(exe) + " <" + quote(in) + " >" + quote(out) + " 2>" + quote(err));
  std::string where = label + " on " + transcript.filename().string();
  check(rc == 0, where, "exit status " + std::to_string(rc) + " at the end of stdin; stderr:\n" + slurp(err));
  std::string text = slurp(out);
  if (stderr_text) *stderr_text = slurp(err);
  std::vector<std::string> lines;
  std::size_t begin = 0;
  while (begin < text.size()) {
    std::size_t nl = text.find('\n', begin);
    if (nl == std::string::npos) {
      fail(where, "the last answer has no newline");
      lines.push_back(text.substr(begin));
      break;
    }
    lines.push_back(text.substr(begin, nl - begin));
    begin = nl + 1;
  }
  check(lines.size() == entries.size(), where,
        std::to_string(lines.size()) + " answers to " + std::to_string(entries.size()) + " lines");
  for (std::size_t k = 0; k < entries.size() && k < lines.size(); ++k)
    check_answer(transcript.filename().string() + ":" + std::to_string(entries[k].line) + " (" + label + ")", entries[k], lines[k], game);
}

void run_examples(const fs::path& test_dir, const fs::path& sdk, const fs::path& examples, const fs::path& scratch,
                  bool with_examples) {
  ::setenv("CPLUS_INCLUDE_PATH", sdk.c_str(), 1);  // as the arena sets it (to /sdk)
  for (const char* game : {"dynamite", "finger", "bidding", "auction", "realtv"}) {
    if (!with_examples) break;
    fs::path src = examples / game;
    std::string label = std::string("examples/cpp/") + game;
    if (!check(fs::is_directory(src), label, "missing")) continue;
    auto t0 = std::chrono::steady_clock::now();
    std::optional<fs::path> exe = build(src, scratch / game, game);
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    say("built " + label + " in " + std::to_string(static_cast<int>(secs * 10) / 10.0).substr(0, 4) + " s");
    if (!exe) continue;
    play(*exe, test_dir / "transcripts" / (std::string(game) + ".jsonl"), game, scratch, game);
    if (std::string(game) == "dynamite") play(*exe, test_dir / "transcripts" / "malformed.jsonl", game, scratch, "dynamite-malformed");
  }
  // The noisy bot: prints everywhere, reads stdin; the protocol must stay clean.
  fs::path noisy = scratch / "noisy-src";
  fs::remove_all(noisy);
  fs::create_directories(noisy);
  fs::copy_file(test_dir / "noisy.cpp", noisy / "bot.cpp");
  if (std::optional<fs::path> exe = build(noisy, scratch / "noisy", "noisy")) {
    std::string err;
    play(*exe, test_dir / "transcripts" / "dynamite.jsonl", "dynamite", scratch, "noisy", &err);
    for (const char* mark : {"noisy: static init cout", "noisy: static init printf", "noisy: main cout", "noisy: move cout",
                             "noisy: move printf", "noisy: move puts", "noisy: move write(1)", "noisy: stdin is at its end"})
      check(err.find(mark) != std::string::npos, "noisy", std::string("stderr lacks \"") + mark + "\"");
  }
}

}  // namespace

int main(int argc, char** argv) {
  auto t0 = std::chrono::steady_clock::now();
  bool lib_only = false, keep = false, with_examples = true;
  std::string dir_arg;
  for (int k = 1; k < argc; ++k) {
    std::string a = argv[k];
    if (a == "--lib-only") lib_only = true;
    else if (a == "--no-examples") with_examples = false;
    else if (a == "--keep") keep = true;
    else dir_arg = a;
  }
  if (dir_arg.empty()) {
    std::cerr << "usage: " << argv[0] << " [--lib-only] [--no-examples] [--keep] sdk/cpp/test\n";
    return 2;
  }
  fs::path test_dir = fs::absolute(dir_arg);
  fs::path sdk = test_dir.parent_path();
  fs::path examples = sdk.parent_path().parent_path() / "examples" / "cpp";
  fs::path scratch = fs::absolute(fs::path(argv[0]).string() + ".d");
  try {
    fs::create_directories(scratch);
    // The kit logs every refused seat and bad line on stderr: into a file, not the report.
    report_fd = ::dup(2);
    int log = ::open((scratch / "library.log").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (log >= 0) ::dup2(log, 2), ::close(log);
    run_library(test_dir);
    say("library: " + std::to_string(checks) + " checks, " + std::to_string(failures) + " failures (the kit's log: " +
        (scratch / "library.log").string() + ")");
    if (!lib_only) run_examples(test_dir, sdk, examples, scratch, with_examples);
  } catch (const std::exception& e) {
    fail("selftest", e.what());
  }
  if (!keep && failures == 0) fs::remove_all(scratch);
  else say("scratch files kept in " + scratch.string());
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  char summary[160];
  std::snprintf(summary, sizeof summary, "%s: %d checks, %d failures, %.1f s", failures ? "FAILED" : "ok", checks, failures, secs);
  say(summary);
  return failures ? 1 : 0;
}
