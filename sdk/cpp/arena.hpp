// arena.hpp: the C++ kit of the arena (C++20, standard library only, header-only).
//
// A bot is a program that reads one JSON request per line on stdin and answers each with one
// JSON line on stdout (docs/protocol.md section 11). This kit does all of that: it reads the
// lines, keeps one player per (match, seat), rebuilds each game's history from the deltas,
// times the move, turns an exception into an error answer, and writes the answers. You write a
// player class per game and a main():
//
//   #include "arena.hpp"
//   using namespace arena::dynamite;
//   struct Rocky : Player {
//     Move move(const State&) override { return Move::Rock; }
//   };
//   int main() { return arena::serve({.name = "rocky", .author = "me", .games = {play<Rocky>()}}); }
//
// A game without a header here is played as JSON with arena::any::play<P>("<game>") (arena/any.hpp).
//
// The arena compiles a bot with CPLUS_INCLUDE_PATH=/sdk (this folder); locally, -I sdk/cpp.
//
// Before main() runs, the kit takes the real stdin and stdout for the protocol and points fd 1
// (printf, std::cout) at stderr and fd 0 (std::cin) at /dev/null: print what you like, it goes
// to the bot's log. Do not write to the protocol yourself.
#pragma once

#include "arena/json.hpp"
#include "arena/value.hpp"
#include "arena/wire.hpp"
#include "arena/core.hpp"
#include "arena/any.hpp"
#include "arena/dynamite.hpp"
#include "arena/finger.hpp"
#include "arena/bidding.hpp"
#include "arena/auction.hpp"
#include "arena/realtv.hpp"
#include "arena/serve.hpp"
