// finger: the game is small (each hand 0..5), so the whole game graph is solved once by
// retrograde analysis: a position is won when some move leads to a position lost for the
// opponent, lost when every move leads to one won for the opponent, and drawn otherwise.
// The bot wins as fast as it can, keeps a draw, or, when lost, holds out as long as it can.

import { serve } from "arena"; // first: loading the kit keeps the real stdout for the handshake
import type { FingerChoice, FingerMove, FingerSeat } from "arena";

const MAX = 5; // a switch may put exactly 5 on a hand (docs/rules/finger.md)
type Pos = [number, number, number, number]; // mover left, mover right, other left, other right

const UNKNOWN = 0;
const WIN = 1;
const LOSS = 2;

interface Child {
  choice: FingerChoice;
  next: number; // the position with the opponent to move
}

const idx = (a: number, b: number, c: number, d: number): number => ((a * 6 + b) * 6 + c) * 6 + d;
const N = 6 * 6 * 6 * 6;

const hit = (target: number, by: number): number => (target + by >= 5 ? 0 : target + by);

/** The legal moves from a position (the mover's point of view). */
function moves([a, b, c, d]: Pos): Child[] {
  const out: Child[] = [];
  const add = (move: FingerMove, next: number, l?: number, r?: number): void => {
    out.push({ choice: l === undefined ? { move } : { move, switch_left: l, switch_right: r }, next });
  };
  if (a > 0 && c > 0) add("FINGER_MOVE_LEFT_TO_LEFT", idx(hit(c, a), d, a, b));
  if (a > 0 && d > 0) add("FINGER_MOVE_LEFT_TO_RIGHT", idx(c, hit(d, a), a, b));
  if (b > 0 && c > 0) add("FINGER_MOVE_RIGHT_TO_LEFT", idx(hit(c, b), d, a, b));
  if (b > 0 && d > 0) add("FINGER_MOVE_RIGHT_TO_RIGHT", idx(c, hit(d, b), a, b));
  const total = a + b;
  for (let l = 0; l <= MAX; l++) {
    const r = total - l;
    if (r < 0 || r > MAX) continue;
    if ((l === a && r === b) || (l === b && r === a)) continue;
    add("FINGER_MOVE_SWITCH", idx(c, d, l, r), l, r);
  }
  return out;
}

function decode(i: number): Pos {
  return [Math.floor(i / 216) % 6, Math.floor(i / 36) % 6, Math.floor(i / 6) % 6, i % 6];
}

// value[i] for the player to move at position i, and the number of moves to the end.
const value = new Uint8Array(N);
const depth = new Uint16Array(N);
const children: Child[][] = [];

(function solve(): void {
  for (let i = 0; i < N; i++) {
    const p = decode(i);
    children[i] = p[0] + p[1] === 0 || p[2] + p[3] === 0 ? [] : moves(p);
    if (p[0] + p[1] === 0) value[i] = LOSS; // the mover has no fingers: lost
    else if (p[2] + p[3] === 0) value[i] = WIN;
  }
  for (let changed = true, ply = 1; changed; ply++) {
    changed = false;
    const next = value.slice();
    for (let i = 0; i < N; i++) {
      if (value[i] !== UNKNOWN) continue;
      const kids = children[i];
      if (kids.some((k) => value[k.next] === LOSS)) {
        next[i] = WIN;
        depth[i] = ply;
        changed = true;
      } else if (kids.length > 0 && kids.every((k) => value[k.next] === WIN)) {
        next[i] = LOSS;
        depth[i] = ply;
        changed = true;
      }
    }
    value.set(next);
  }
})();

export function finger(seat: FingerSeat): FingerChoice {
  const o = seat.obs;
  const hands = [o.own_left, o.own_right, o.opponent_left, o.opponent_right];
  if (hands.some((h) => h < 0 || h > MAX)) throw new Error(`hands out of range: ${hands.join(" ")}`);
  const kids = moves(hands as Pos);
  if (kids.length === 0) throw new Error(`no legal move from ${hands.join(" ")}`);

  const pick = (list: Child[], better: (x: Child, y: Child) => boolean): FingerChoice => {
    let best = list[Math.floor(Math.random() * list.length)];
    for (const k of list) if (better(k, best)) best = k;
    return best.choice;
  };
  const winning = kids.filter((k) => value[k.next] === LOSS);
  if (winning.length) return pick(winning, (x, y) => depth[x.next] < depth[y.next]);
  const drawing = kids.filter((k) => value[k.next] === UNKNOWN);
  if (drawing.length) {
    // Among drawn positions, prefer those where the opponent has the most ways to go wrong.
    const traps = (k: Child): number => children[k.next].filter((g) => value[g.next] === WIN).length;
    return pick(drawing, (x, y) => traps(x) > traps(y));
  }
  return pick(kids, (x, y) => depth[x.next] > depth[y.next]);
}

serve({ name: "ts-solver", author: "arena examples", version: "0.1.0", strategies: { finger } });
