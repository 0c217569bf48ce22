"use strict";
/**
 * The arena's JavaScript kit: `require("arena")` (the arena sets NODE_PATH=/sdk).
 *
 *     const arena = require("arena");
 *
 *     class Frequency {
 *       move(state) { return state.rounds.length ? "P" : "R"; }
 *     }
 *
 *     arena.serve({ name: "frequency", author: "me", version: "1.0",
 *                   games: [arena.dynamite.play(() => new Frequency())] });
 *
 * The kit speaks the stdio protocol of docs/protocol.md (section 11): it reads one JSON request per
 * line on stdin, answers each with one line on stdout, keeps one player per (matchId, seat),
 * rebuilds each game's history from the deltas and turns a throw in the player's code into an
 * error answer instead of a dead process.
 *
 * stdout belongs to the protocol. Loading this module points `process.stdout.write` (and so
 * console.log, console.info, console.debug...) at stderr, which is the bot's log; do not write to
 * file descriptor 1 yourself (fs.writeSync(1, ...)) or give a child process your stdout.
 */

const lib = require("./lib/index");
const { loop, log } = require("./lib/server");

// ---- stdout is the protocol's -------------------------------------------------------------------

const stdout = process.stdout;
const realWrite = stdout.write.bind(stdout);
// Every other write to process.stdout (console.log included: it looks write up at each call)
// goes to the log.
stdout.write = function write(chunk, encoding, cb) {
  return process.stderr.write(chunk, encoding, cb);
};

let served = false;

/**
 * Plays the bot: answers the protocol's lines on stdin until stdin ends, then exits with status 0.
 * Call it once, at the end of your bot file.
 * @param {import("./lib/server").Bot} bot `{name, author, version, games: [arena.<game>.play(...)]}`
 */
function serve(bot) {
  if (served) throw new Error("arena.serve was called twice");
  served = true;
  const handler = new lib.Handler(bot);

  if (!process.env.ARENA_STDIO && process.stdin.isTTY) log(helpText(bot));

  // A throw or a rejected promise outside any call of the kit (a timer of the player's, say)
  // is logged; the process, and every other seat it holds, lives on.
  process.on("uncaughtException", (e) => log(`arena(js): uncaught exception: ${(e && e.stack) || e}`));
  process.on("unhandledRejection", (e) => log(`arena(js): unhandled rejection: ${(e && e.stack) || e}`));
  // The bridge went away: nothing is left to answer.
  stdout.on("error", () => process.exit(0));

  loop(handler, process.stdin, (line) => realWrite(line), () => {
    process.exitCode = 0;
    // Exit once the last answers are written; a timer or socket the player left open does not
    // keep the process alive.
    setTimeout(() => process.exit(0), 1000).unref();
  });
}

function helpText(bot) {
  const games = Array.isArray(bot && bot.games) ? bot.games.filter((g) => g && g.name) : [];
  const plays = games.length
    ? games.map((g) => `    arena play ${g.name} <this bot's folder> ${g.houseBot}`).join("\n")
    : "    arena play <game> <this bot's folder> <another bot>";
  return `${(bot && bot.name) || "this program"} is an arena bot (${lib.SDK}): it reads one JSON request per line on\n` +
    `stdin and answers each with one line on stdout (docs/protocol.md, section 11). Try\n\n` +
    `    printf '%s\\n' '{"describe":{}}' | node <this bot's folder>\n\nor play it against a house bot:\n\n${plays}\n`;
}

module.exports = { ...lib, serve };
