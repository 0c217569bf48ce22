// A coin bot in raw JSON lines (no kit): one request a line on stdin, one answer a line on
// stdout; tails on even rounds, heads on odd.
let buf = "";
process.stdin.on("data", (chunk) => {
  buf += chunk;
  let i;
  while ((i = buf.indexOf("\n")) >= 0) {
    const req = JSON.parse(buf.slice(0, i));
    buf = buf.slice(i + 1);
    let out = {};
    if (req.describe) out = { name: "coin-stdio" };
    if (req.act) out = { step: req.act.step, coin: { call: req.act.coin.round % 2 === 0 ? "COIN_SIDE_TAILS" : "COIN_SIDE_HEADS" } };
    process.stdout.write(JSON.stringify(out) + "\n");
  }
});
