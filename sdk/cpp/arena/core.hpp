// arena/core.hpp: what every game shares: the seat's fixed facts, the clock, the outcome, the
// invalid-answer error, the type-erased game entry, and the kit's hold on the real stdout.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <functional>
#include <iostream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <typeinfo>
#include <utility>
#include <vector>

#include <cxxabi.h>
#include <fcntl.h>
#include <unistd.h>

#include "json.hpp"
#include "wire.hpp"

namespace arena {

// The kit's name and version, sent in DescribeResponse.sdk.
inline constexpr std::string_view kSdk = "cpp/0.1.0";

using SteadyClock = std::chrono::steady_clock;

// InvalidAnswer is thrown by the kit when a player's answer cannot be encoded as a move of its
// game; the answer becomes a BotError of kind BOT_ERROR_KIND_INVALID_ANSWER (charged as garbage).
// A player may throw it too.
class InvalidAnswer : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// SeatInfo is what every seat learns when it opens, whatever the game.
struct SeatInfo {
  std::string match_id;              // unique id of the match (or contest) in the host run
  int seat = 0;                      // this seat's index, 0-based
  std::vector<std::string> players;  // display names of all seats, by seat
  double deadline = 0;               // per-move deadline, seconds
  double clock = 0;                  // total clock per seat, seconds (0: the game has none)
};

// Clock is the time of the current move, set when its line arrived.
class Clock {
 public:
  SteadyClock::time_point received{};  // when the request's line arrived
  SteadyClock::time_point deadline{};  // when the host stops waiting for this answer
  std::int64_t deadline_ms = 0;        // the request's deadline_ms
  double clock_remaining = 0;          // what was left of the total clock, seconds (0: no clock)
  bool cpu_clock = false;              // moves are charged the CPU time of the bot's own processes
  double budget = 0;                   // this move's budget, seconds (CPU time when cpu_clock)
  double bank_remaining = 0;           // overage bank left, seconds: the move may spend budget + this
  double wall_cap = 0;                 // wall time after which the move is a timeout anyway, seconds

  // Seconds left for this move (negative once the deadline has passed). Leave a margin.
  double time_left() const {
    return std::chrono::duration<double>(deadline - SteadyClock::now()).count();
  }
  // Seconds since the request's line arrived.
  double elapsed() const {
    return std::chrono::duration<double>(SteadyClock::now() - received).count();
  }

  void tick_(SteadyClock::time_point now, const wire::ActRequest& req) {
    received = now;
    deadline_ms = req.deadline_ms;
    deadline = now + std::chrono::milliseconds(req.deadline_ms);
    clock_remaining = static_cast<double>(req.clock_remaining_ms) / 1000.0;
    cpu_clock = req.clock_mode == 2;
    // An older host sends no budget: its deadline is the budget and the wall cap.
    budget = static_cast<double>(req.budget_us > 0 ? req.budget_us : req.deadline_ms * 1000) / 1e6;
    bank_remaining = static_cast<double>(req.bank_remaining_us > 0 ? req.bank_remaining_us : 0) / 1e6;
    wall_cap = static_cast<double>(req.wall_cap_ms > 0 ? req.wall_cap_ms : req.deadline_ms) / 1000.0;
  }
};

// Result is a seat's result in a finished match (Unspecified: the match was cut short).
enum class Result { Unspecified = 0, Win = 1, Loss = 2, Draw = 3 };

// Outcome is handed to a player's end(): the result, the score in the game's unit, and the
// seat's state after the final observation (if the game sends one).
template <class S>
struct Outcome {
  Result result;
  double score;
  const S& state;
};

namespace detail {

inline SeatInfo seat_info(const wire::StartRequest& r) {
  return SeatInfo{r.match_id, r.seat, r.players, static_cast<double>(r.deadline_ms) / 1000.0,
                  static_cast<double>(r.clock_ms) / 1000.0};
}

inline Result result_of(std::int32_t v) {
  return v >= 0 && v <= 3 ? static_cast<Result>(v) : Result::Unspecified;
}

// Seat is one open seat: it turns the game's observations into the player's state, and the
// player's answer into the action's JSON (",\"dynamite\":{...}" appended to out).
class Seat {
 public:
  virtual ~Seat() = default;
  virtual void act(const wire::ActRequest& req, SteadyClock::time_point now, std::string& out) = 0;
  virtual void end(const wire::EndRequest& req) = 0;
};

// setup decodes game's setup message M from a StartRequest (its default when there is none).
template <class M>
M setup(const wire::StartRequest& req, std::string_view game) {
  const wire::Member* m = req.setup.of(game);
  return m ? wire::decode<M>(m->json) : M{};
}

// observation is the JSON text of game's observation in an ActRequest; InvalidAnswer when the
// request carries none (or another game's).
inline std::string_view observation_json(const wire::ActRequest& req, std::string_view game) {
  const wire::Member* m = req.observation.of(game);
  if (!m)
    throw InvalidAnswer("expected a " + std::string(game) + " observation, got " +
                        std::string(req.observation.other_than(game)));
  return m->json;
}

// observation decodes game's observation message M from an ActRequest (see observation_json).
template <class M>
M observation(const wire::ActRequest& req, std::string_view game) {
  return wire::decode<M>(observation_json(req, game));
}

// final_observation decodes game's observation M from an EndRequest, if it carries one.
template <class M>
std::optional<M> final_observation(const wire::EndRequest& req, std::string_view game) {
  const wire::Member* m = req.observation.of(game);
  if (!m) return std::nullopt;
  return wire::decode<M>(m->json);
}

// PlayerSeat is what every game's seat holds: its player (P, checked) and the state S handed to
// it (S::setup starts as the seat's facts). A game's seat derives from it, fills the rest of the
// setup, calls start, and decodes and encodes its own messages.
template <class P, class S>
class PlayerSeat : public Seat {
 protected:
  PlayerSeat(std::unique_ptr<P> p, const wire::StartRequest& r) : player_(std::move(p)) {
    if (!player_) throw std::runtime_error("the player factory returned no player");
    static_cast<SeatInfo&>(state_.setup) = seat_info(r);
  }

  // end_with calls the player's end hook with the outcome of req and the state as it stands.
  void end_with(const wire::EndRequest& req) { player_->end(Outcome<S>{result_of(req.result), req.score, state_}); }

  std::unique_ptr<P> player_;
  S state_;
};

// demangle turns a type's mangled name into the C++ spelling.
inline std::string demangle(const char* mangled) {
  int status = 0;
  char* s = abi::__cxa_demangle(mangled, nullptr, nullptr, &status);
  std::string out = status == 0 && s ? s : mangled;
  std::free(s);
  return out;
}

template <class T>
std::string type_name() {
  std::string n = demangle(typeid(T).name());
  // The class name alone ("Frequency", not "(anonymous namespace)::Frequency").
  std::size_t depth = 0, cut = 0;
  for (std::size_t i = 0; i < n.size(); ++i) {
    if (n[i] == '<') ++depth;
    else if (n[i] == '>') --depth;
    else if (depth == 0 && n[i] == ':' && i + 1 < n.size() && n[i + 1] == ':') cut = i + 2;
  }
  return n.substr(cut);
}

// ExceptionReport describes the exception being handled (call only inside a catch block).
struct ExceptionReport {
  std::string message;    // "std::out_of_range: vector::_M_range_check ..."
  std::string traceback;  // where it was caught and the whole what() when the message was cut
};

inline ExceptionReport describe_current_exception() {
  std::string type, what;
  try {
    throw;
  } catch (const std::exception& e) {
    type = demangle(typeid(e).name());
    what = e.what() ? e.what() : "";
  } catch (const char* s) {
    type = "const char*";
    what = s ? s : "";
  } catch (const std::string& s) {
    type = "std::string";
    what = s;
  } catch (...) {
    std::type_info* t = abi::__cxa_current_exception_type();
    type = t ? demangle(t->name()) : "unknown";
    what = "(a thrown value of type " + type + ")";
  }
  ExceptionReport r;
  r.message = type + ": " + what;
  if (r.message.size() > 1000) {
    r.message.resize(997);
    r.message += "...";
  }
  constexpr std::size_t kMax = 64 << 10;
  if (what.size() > kMax)
    what = what.substr(0, kMax / 2) + "\n[... " + std::to_string(what.size() - kMax) +
           " characters cut by the kit ...]\n" + what.substr(what.size() - kMax / 2);
  r.traceback = "C++ exception of type " + type + " (the kit has no stack trace); what():\n" + what;
  return r;
}

// Stdio holds the protocol's own descriptors: dups of the real stdin and stdout.
struct Stdio {
  int in = 0, out = 1;
};

// stdio takes the real stdin and stdout for the protocol, once: fd 1 (printf, std::cout) then
// writes to stderr and fd 0 (std::cin) reads /dev/null, so that no stray print or read of the
// player's code can corrupt the protocol.
inline Stdio& stdio() {
  static Stdio fds = [] {
    Stdio s;
    std::fflush(stdout);
    int out = ::fcntl(1, F_DUPFD_CLOEXEC, 3);
    if (out >= 0 && ::dup2(2, 1) >= 0) s.out = out;
    int in = ::fcntl(0, F_DUPFD_CLOEXEC, 3);
    if (in >= 0) {
      int null = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
      if (null >= 0 && ::dup2(null, 0) >= 0) {
        s.in = in;
      } else {
        ::close(in);
      }
      if (null >= 0) ::close(null);
    }
    std::ios::sync_with_stdio(false);
    // std::cout shares std::cerr's buffer and flushes after every output, like std::cerr.
    std::cout.rdbuf(std::cerr.rdbuf());
    std::cout.setf(std::ios::unitbuf);
    std::setvbuf(stdout, nullptr, _IOLBF, BUFSIZ);  // printf goes out line by line
    return s;
  }();
  return fds;
}

// Taking stdio happens during the static initialisation of any file that includes the kit, so
// before main() and before the player's own code.
struct StdioTaker {
  StdioTaker() { stdio(); }
};
inline const StdioTaker stdio_taker;

}  // namespace detail

// Game is one game a bot plays: made by arena::<game>::play<Player>().
struct Game {
  std::string name;         // the game's registry name ("dynamite")
  std::string player_type;  // the player's class name (the bot's name when Bot::name is empty)
  std::function<std::unique_ptr<detail::Seat>(const wire::StartRequest&)> open;
};

namespace detail {

// entry makes the Game whose seats are S, each played by a new (default-constructed) P: what
// every game's play<P>() returns.
template <class S, class P>
Game entry(std::string game) {
  return Game{std::move(game), type_name<P>(), [](const wire::StartRequest& r) {
                return std::unique_ptr<Seat>(new S(std::make_unique<P>(), r));
              }};
}

// entry with a factory: make() is called once per seat; name is the player's class name.
template <class S, class Player>
Game entry(std::string game, std::function<std::unique_ptr<Player>()> make, std::string name) {
  return Game{std::move(game), std::move(name), [make = std::move(make)](const wire::StartRequest& r) {
                return std::unique_ptr<Seat>(new S(make(), r));
              }};
}

}  // namespace detail

// Bot is what arena::serve plays: who the bot is and the games it plays.
struct Bot {
  std::string name{};  // display name; in realtv the class name others see (default: the player class)
  std::string author{};
  std::string version{};
  std::vector<Game> games{};
};

}  // namespace arena
