// Package rerun plays a recorded match again, exactly: the same game, parameters and seed, and
// for every step the recorded answers, so the engine goes through the same states.
//
// Two uses, one mechanism (a Plan wraps the engine the runner drives):
//
//   - Against: some players play live (an author's bot) and every other player's answers come
//     from the record. Each live answer is compared with the recorded one; while they agree the
//     match is the recorded match, and at the first answer that differs the re-run stops and
//     says at which step, which seat, and both answers (or, with a continuation, the other
//     players go on live from there).
//   - Fork: every player is a live bot, and the answers of steps before Plan.From are the
//     recorded ones; from that step on the bots play for themselves.
//
// Live bots are asked at every step, also while their answers are replaced: a game tells a bot
// only what changed since its last move (DESIGN.md: a request must not grow with the match),
// so a bot that joined at step N would not know the history. A replaced answer is what the
// bot's next observation shows as its own move.
package rerun
