"use strict";
// Every example bot (examples/javascript/<game>) as the arena runs it, `node <folder>` with the
// kit on NODE_PATH: its game's transcript and the malformed one, answered line by line.

const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const path = require("node:path");
const { EXAMPLES, GAMES, transcript, runBot, checkAnswers } = require("./harness");

for (const game of GAMES) {
  const dir = path.join(EXAMPLES, game);

  test(`examples/javascript/${game}: the folder is what the recipe expects`, () => {
    // The program and its package, and the README every example folder has.
    assert.deepEqual(fs.readdirSync(dir).sort(), ["README.md", "bot.js", "package.json"]);
    const pkg = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
    assert.equal(pkg.main, "bot.js");
    assert.equal(pkg.dependencies, undefined, "no dependencies");
    assert.equal(pkg.scripts && pkg.scripts.build, undefined, "no build script");
  });

  test(`examples/javascript/${game}: plays its transcript`, () => {
    const lines = transcript(game);
    const r = runBot(dir, lines);
    assert.equal(r.status, 0, `exit status; stderr:\n${r.stderr}`);
    const answers = checkAnswers(lines, r.answers, { game });
    const d = answers[0];
    assert.ok(d.name && !/\n/.test(d.name) && Buffer.byteLength(d.name) <= 128, "a one-line name");
    assert.deepEqual(d.games, [game]);
    assert.deepEqual(answers[1], {}, "the seat is accepted");
    assert.equal(r.stderr, "", "nothing logged");
  });

  test(`examples/javascript/${game}: malformed lines`, () => {
    const lines = transcript("malformed");
    const r = runBot(dir, lines);
    assert.equal(r.status, 0, `exit status; stderr:\n${r.stderr}`);
    checkAnswers(lines, r.answers, { game: "dynamite", allowErrors: true });
    const start = JSON.parse(r.answers[7]); // the dynamite start of line 8
    if (game === "dynamite") assert.deepEqual(start, {});
    else assert.match(start.error, /does not play dynamite/);
  });
}
