// arena/serve.hpp: the line loop (docs/protocol.md section 11). One JSON line in, one JSON line
// out, for every line: describe -> DescribeResponse, start -> StartResponse, act -> ActResponse
// (step echoed), end -> EndResponse; seats kept by (match_id, seat).
#pragma once

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <unistd.h>

#include "core.hpp"

namespace arena {
namespace detail {

// log writes one diagnostic line to stderr (the bot's log), unbuffered.
inline void log(std::string_view text) {
  std::string line = "arena(cpp): ";
  line += text;
  if (line.empty() || line.back() != '\n') line += '\n';
  std::size_t done = 0;
  while (done < line.size()) {
    ssize_t n = ::write(2, line.data() + done, line.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    done += static_cast<std::size_t>(n);
  }
}

// Server answers lines; it knows nothing of file descriptors (run() feeds it), so the self-test
// drives it directly.
class Server {
 public:
  explicit Server(Bot bot) : bot_(std::move(bot)) {
    for (const Game& g : bot_.games)
      if (std::find(played_.begin(), played_.end(), g.name) == played_.end()) played_.push_back(g.name);
    std::sort(played_.begin(), played_.end());
    name_ = bot_.name;
    if (name_.empty() && !bot_.games.empty()) name_ = bot_.games.front().player_type;
    if (name_.empty()) name_ = "cpp-bot";
  }

  // handle answers one line (without its newline); `arrived` is when it was read, which starts
  // the move's clock. The answer has no newline either.
  std::string handle(std::string_view line, SteadyClock::time_point arrived) {
    ++lines_;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    enum class Call { None, Describe, Start, Act, End } call = Call::None;
    wire::StartRequest start;
    wire::ActRequest act;
    wire::EndRequest end;
    try {
      json::Reader r(line);
      if (!r.at_object()) throw json::Error("expected a JSON object");
      r.object([&](std::string_view k) {
        if (call != Call::None) {  // one call per line; the first one counts
          r.skip();
        } else if (k == "describe") {
          call = Call::Describe;
          wire::DescribeRequest d;
          wire::read(r, d);
        } else if (k == "start") {
          call = Call::Start;
          wire::read(r, start);
        } else if (k == "act") {
          call = Call::Act;
          wire::read(r, act);
        } else if (k == "end") {
          call = Call::End;
          wire::read(r, end);
        } else {
          r.skip();  // a call this kit does not know, or another field
        }
      });
      r.finish();
    } catch (const json::Error& e) {
      std::string why = "line " + std::to_string(lines_) + " from the arena is not a request this kit can read: " + e.what();
      log(why);
      switch (call) {
        case Call::Act: return act_error(act.step, 2, why, "");
        case Call::Describe: return describe();
        case Call::End: return "{}";
        default: {
          std::string out = "{\"error\":";
          json::append_string(out, why);
          out += '}';
          return out;
        }
      }
    }
    switch (call) {
      case Call::Describe: return describe();
      case Call::Start: return do_start(start);
      case Call::Act: return do_act(act, arrived);
      case Call::End: return do_end(end);
      case Call::None: break;
    }
    return "{}";  // nothing this kit knows: an empty message answers any call
  }

  std::size_t open_seats() const { return seats_.size(); }

 private:
  using Key = std::pair<std::string, std::int32_t>;

  std::string describe() const {
    std::string out = "{\"name\":";
    json::append_string(out, name_);
    if (!bot_.author.empty()) {
      out += ",\"author\":";
      json::append_string(out, bot_.author);
    }
    if (!bot_.version.empty()) {
      out += ",\"version\":";
      json::append_string(out, bot_.version);
    }
    if (!played_.empty()) {
      out += ",\"games\":[";
      for (std::size_t i = 0; i < played_.size(); ++i) {
        if (i) out += ',';
        json::append_string(out, played_[i]);
      }
      out += ']';
    }
    out += ",\"sdk\":";
    json::append_string(out, kSdk);
    out += '}';
    return out;
  }

  static std::string refuse(std::string_view why) {
    std::string out = "{\"error\":";
    json::append_string(out, why.empty() ? std::string_view("refused") : why);
    out += '}';
    return out;
  }

  std::string do_start(const wire::StartRequest& req) {
    const Game* game = nullptr;
    for (const Game& g : bot_.games)
      if (g.name == req.game) {
        game = &g;
        break;
      }
    if (!game) {
      std::string plays;
      for (const std::string& g : played_) plays += (plays.empty() ? "" : ", ") + g;
      std::string why = "bot '" + name_ + "' does not play " + req.game + " (it plays " + (plays.empty() ? "nothing" : plays) +
                        "; a bot plays any game as JSON with arena::any::play)";
      log("start of seat " + std::to_string(req.seat) + " of match " + req.match_id + " refused: " + why);
      return refuse(why);
    }
    if (!req.setup.of(req.game) && !req.setup.list.empty()) {
      std::string why = req.game + " seat opened with a " + std::string(req.setup.other_than(req.game)) + " setup";
      log(why);
      return refuse(why);
    }
    std::unique_ptr<Seat> seat;
    try {
      seat = game->open(req);
    } catch (const json::Error& e) {
      std::string why = "line " + std::to_string(lines_) + ": the " + req.game + " setup is not one this kit can read: " + e.what();
      log(why);
      return refuse(why);
    } catch (...) {
      ExceptionReport e = describe_current_exception();
      std::string why = "opening the " + req.game + " seat failed (the player's constructor or start() threw) " + e.message;
      log("seat " + std::to_string(req.seat) + " of match " + req.match_id + ": " + why + "\n" + e.traceback);
      return refuse(why);
    }
    seats_.insert_or_assign(Key{req.match_id, req.seat}, std::move(seat));
    return "{}";
  }

  static std::string act_error(std::int64_t step, int kind, std::string_view message, std::string_view traceback) {
    std::string out = "{";
    if (step != 0) {
      out += "\"step\":";
      json::append_int64(out, step);
      out += ',';
    }
    out += "\"error\":{\"kind\":\"";
    out += wire::kBotErrorKind[static_cast<std::size_t>(kind)];
    out += "\",\"message\":";
    json::append_string(out, message);
    if (!traceback.empty()) {
      out += ",\"traceback\":";
      json::append_string(out, traceback);
    }
    out += "}}";
    return out;
  }

  std::string do_act(const wire::ActRequest& req, SteadyClock::time_point arrived) {
    auto it = seats_.find(Key{req.match_id, req.seat});
    if (it == seats_.end()) {
      std::string why = "no open seat " + std::to_string(req.seat) + " in match '" + req.match_id + "'";
      log(why);
      return act_error(req.step, 2, why, "");
    }
    std::string action;
    try {
      it->second->act(req, arrived, action);
    } catch (const json::Error& e) {
      std::string why = "line " + std::to_string(lines_) + " from the arena is not a request this kit can read: " + e.what();
      log(why);
      return act_error(req.step, 2, why, "");
    } catch (const InvalidAnswer& e) {
      std::string why = e.what();
      log("invalid answer in match " + req.match_id + " seat " + std::to_string(req.seat) + " step " +
          std::to_string(req.step) + ": " + why);
      return act_error(req.step, 2, why, "");
    } catch (...) {
      ExceptionReport e = describe_current_exception();
      log("the player threw in match " + req.match_id + " seat " + std::to_string(req.seat) + " step " +
          std::to_string(req.step) + ": " + e.message);
      return act_error(req.step, 1, e.message, e.traceback);
    }
    std::string out = "{";
    if (req.step != 0) {
      out += "\"step\":";
      json::append_int64(out, req.step);
    } else {
      action.erase(0, 1);  // no step: drop the action's leading comma
    }
    out += action;
    out += '}';
    return out;
  }

  std::string do_end(const wire::EndRequest& req) {
    auto it = seats_.find(Key{req.match_id, req.seat});
    if (it == seats_.end()) return "{}";
    std::unique_ptr<Seat> seat = std::move(it->second);
    seats_.erase(it);
    try {
      seat->end(req);
    } catch (...) {
      ExceptionReport e = describe_current_exception();
      log("the end() hook of match " + req.match_id + " seat " + std::to_string(req.seat) + " threw: " + e.message);
    }
    return "{}";
  }

  Bot bot_;
  std::vector<std::string> played_;
  std::string name_;
  std::map<Key, std::unique_ptr<Seat>> seats_;
  std::uint64_t lines_ = 0;
};

inline bool write_all(int fd, const std::string& s) {
  std::size_t done = 0;
  while (done < s.size()) {
    ssize_t n = ::write(fd, s.data() + done, s.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

// run reads lines from in until its end and writes one answer line to out for each, in one
// write (the flush) per answer. Returns the process's exit status.
inline int run(Server& server, int in, int out) {
  std::string buf;     // bytes read and not yet answered
  std::size_t scanned = 0;  // buf[0, scanned) holds no newline
  std::string answer;
  char chunk[1 << 16];
  for (;;) {
    ssize_t n = ::read(in, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    SteadyClock::time_point now = SteadyClock::now();
    buf.append(chunk, static_cast<std::size_t>(n));
    std::size_t begin = 0;
    for (;;) {
      std::size_t nl = buf.find('\n', std::max(scanned, begin));
      if (nl == std::string::npos) break;
      answer = server.handle(std::string_view(buf).substr(begin, nl - begin), now);
      answer += '\n';
      if (!write_all(out, answer)) return 1;
      begin = nl + 1;
    }
    buf.erase(0, begin);
    scanned = buf.size();
  }
  if (!buf.empty()) {  // a last line without its newline
    answer = server.handle(buf, SteadyClock::now());
    answer += '\n';
    if (!write_all(out, answer)) return 1;
  }
  return 0;
}

}  // namespace detail

// serve plays the bot over the stdio protocol until stdin ends; main returns what it returns:
//
//   int main() { return arena::serve({.name = "mybot", .author = "me", .games = {arena::dynamite::play<MyBot>()}}); }
inline int serve(Bot bot) {
  detail::Stdio& io = detail::stdio();
  if (::isatty(io.in) && !std::getenv("ARENA_STDIO"))
    detail::log(
        "this is an arena bot: it reads one JSON request per line on stdin and answers each on stdout "
        "(docs/protocol.md section 11). Play it with: arena play <game> <this bot's folder> <house bot>");
  detail::Server server(std::move(bot));
  return detail::run(server, io.in, io.out);
}

}  // namespace arena
