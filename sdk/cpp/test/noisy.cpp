// noisy: a dynamite bot (always rock) that prints on stdout in every way C++ allows and reads
// stdin, from a static initialiser, main() and move(). The self-test checks that none of it
// reaches the protocol (it all goes to stderr) and that stdin reads see its end.
#include <cstdio>
#include <iostream>
#include <string>

#include <unistd.h>

#include "arena.hpp"

namespace {

struct Early {
  Early() {
    std::cout << "noisy: static init cout" << std::endl;
    std::printf("noisy: static init printf\n");
  }
} early;

struct Noisy : arena::dynamite::Player {
  arena::dynamite::Move move(const arena::dynamite::State& s) override {
    std::cout << "noisy: move cout round " << s.round << "\n";
    std::printf("noisy: move printf\n");
    std::puts("noisy: move puts");
    std::fflush(stdout);
    if (::write(1, "noisy: move write(1)\n", 21) < 0) std::perror("write");
    std::string word;
    if (!(std::cin >> word)) std::cerr << "noisy: stdin is at its end\n";
    return arena::dynamite::Move::Rock;
  }
};

}  // namespace

int main() {
  std::cout << "noisy: main cout\n";
  return arena::serve({.name = "noisy", .games = {arena::dynamite::play<Noisy>()}});
}
