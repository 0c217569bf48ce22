// Per-game seat state: the fixed setup from Start, the latest observation, and the history
// each game's original API showed, rebuilt from the deltas the host sends (protocol section 8).

import type {
  ActRequest,
  AuctionObservation,
  AuctionSetup,
  BiddingObservation,
  BiddingSetup,
  DynamiteMove,
  DynamiteObservation,
  DynamiteSetup,
  FingerAction,
  FingerHistoryEntry,
  FingerMove,
  FingerObservation,
  FingerSetup,
  GameName,
  RealtvObservation,
  RealtvSetup,
  StartRequest,
} from "./types";
import { MESSAGES } from "./types";

/** What every seat has, whatever the game. */
export abstract class SeatBase {
  readonly matchId: string;
  readonly seat: number;
  readonly players: string[];
  /** The match's per-move deadline (StartRequest.deadline_ms). */
  readonly moveDeadlineMs: number;
  /** The seat's total chess clock, 0 when the game has none. */
  readonly clockMs: number;

  /** The current request's step, deadline and clock (set before each move). */
  step = 0;
  deadlineMs = 0;
  clockRemainingMs = 0;
  /** True when moves are charged the CPU time of the bot's own processes (the arena's default). */
  cpuClock = false;
  /** This move's budget in ms: CPU time when cpuClock is set, else wall time. */
  budgetMs = 0;
  /** The overage bank left in ms: the move may spend budgetMs plus this (0: none). */
  bankRemainingMs = 0;
  /** The wall time in ms after which the move is a timeout whatever its CPU time. */
  wallCapMs = 0;
  private arrivedAt = 0;

  /** Free room for a strategy's own per-seat memory. */
  memory: Record<string, unknown> = {};

  constructor(start: StartRequest) {
    this.matchId = start.match_id;
    this.seat = start.seat;
    this.players = start.players ?? [];
    this.moveDeadlineMs = start.deadline_ms;
    this.clockMs = start.clock_ms;
  }

  abstract readonly game: GameName;

  /** Called by the kit when a request arrives, before the observation is applied. */
  beginMove(req: ActRequest, arrivedAt: number): void {
    this.step = req.step;
    this.deadlineMs = req.deadline_ms;
    this.clockRemainingMs = req.clock_remaining_ms;
    this.cpuClock = req.clock_mode === "CLOCK_MODE_CPU";
    // An older host sends no budget: its deadline is the budget and the wall cap.
    this.budgetMs = req.budget_us ? req.budget_us / 1000 : req.deadline_ms;
    this.bankRemainingMs = (req.bank_remaining_us ?? 0) / 1000;
    this.wallCapMs = req.wall_cap_ms || req.deadline_ms;
    this.arrivedAt = arrivedAt;
  }

  /**
   * Milliseconds left for this answer, measured from when the request arrived. The host's
   * own measure includes the transport, so keep a margin (`marginMs`, 50 by default).
   */
  timeLeftMs(marginMs = 50): number {
    const elapsed = performance.now() - this.arrivedAt;
    return this.deadlineMs - elapsed - marginMs;
  }
}

/** Maps an enum value the kit does not know (a number from a newer host) to UNSPECIFIED. */
function known<T extends string>(v: T | number | undefined | null, unspecified: T): T {
  return typeof v === "string" ? v : unspecified;
}

// ---- dynamite ----

export interface DynamiteRound {
  own: DynamiteMove;
  opponent: DynamiteMove;
}

export class DynamiteSeat extends SeatBase {
  readonly game = "dynamite" as const;
  readonly setup: DynamiteSetup;
  obs!: DynamiteObservation;
  /** Every round played so far, oldest first, from this seat's side. */
  readonly rounds: DynamiteRound[] = [];

  constructor(start: StartRequest, setup: DynamiteSetup) {
    super(start);
    this.setup = setup;
  }

  apply(obs: DynamiteObservation): void {
    obs.last_own = known(obs.last_own, "DYNAMITE_MOVE_UNSPECIFIED");
    obs.last_opponent = known(obs.last_opponent, "DYNAMITE_MOVE_UNSPECIFIED");
    this.obs = obs;
    if (obs.round >= 2 && this.rounds.length < obs.round - 1) {
      this.rounds.push({ own: obs.last_own, opponent: obs.last_opponent });
    }
  }
}

// ---- finger ----

export class FingerSeat extends SeatBase {
  readonly game = "finger" as const;
  readonly setup: FingerSetup;
  obs!: FingerObservation;
  /** The moves of the current game so far, oldest first (both players'). */
  history: FingerHistoryEntry[] = [];

  constructor(start: StartRequest, setup: FingerSetup) {
    super(start);
    this.setup = setup;
  }

  apply(obs: FingerObservation): void {
    this.obs = obs;
    if (obs.new_game) this.history = [];
    for (const e of obs.recent ?? []) {
      const a: FingerAction = e.action ?? { move: "FINGER_MOVE_UNSPECIFIED", switch_left: 0, switch_right: 0 };
      a.move = known<FingerMove>(a.move, "FINGER_MOVE_UNSPECIFIED");
      this.history.push({ player: e.player, own: e.own, action: a });
    }
  }
}

// ---- bidding ----

export class BiddingSeat extends SeatBase {
  readonly game = "bidding" as const;
  readonly setup: BiddingSetup;
  obs!: BiddingObservation;
  /** Both players' bids in the current game so far, oldest first. */
  ownBids: number[] = [];
  opponentBids: number[] = [];

  constructor(start: StartRequest, setup: BiddingSetup) {
    super(start);
    this.setup = setup;
  }

  apply(obs: BiddingObservation): void {
    obs.player = known(obs.player, "BIDDING_PLAYER_UNSPECIFIED");
    this.obs = obs;
    if (obs.new_game) {
      this.ownBids = [];
      this.opponentBids = [];
    }
    if (obs.has_last && this.ownBids.length < obs.round - 1) {
      this.ownBids.push(obs.last_own_bid);
      this.opponentBids.push(obs.last_opponent_bid);
    }
  }
}

// ---- auction ----

export interface AuctionRound {
  index: number;
  artist: string;
  /** Empty when nobody won. */
  winner: string;
  /** -1 when nobody won. */
  price: number;
}

export class AuctionSeat extends SeatBase {
  readonly game = "auction" as const;
  readonly setup: AuctionSetup;
  obs!: AuctionObservation;
  /** Every round sold so far, oldest first. */
  readonly rounds: AuctionRound[] = [];
  /** Works owned: player name -> artist -> count. */
  readonly collections = new Map<string, Map<string, number>>();

  constructor(start: StartRequest, setup: AuctionSetup) {
    super(start);
    this.setup = setup;
    for (const p of setup.player_names) this.collections.set(p, new Map());
  }

  apply(obs: AuctionObservation): void {
    this.obs = obs;
    const index = obs.item_index - 1;
    const counted = this.rounds.length ? this.rounds[this.rounds.length - 1].index : -1;
    if (obs.bid_item !== "" && index > counted) {
      this.rounds.push({ index, artist: obs.bid_item, winner: obs.bid_winner, price: obs.winning_bid });
      if (obs.bid_winner !== "") {
        let c = this.collections.get(obs.bid_winner);
        if (!c) this.collections.set(obs.bid_winner, (c = new Map()));
        c.set(obs.bid_item, (c.get(obs.bid_item) ?? 0) + 1);
      }
    }
  }

  /** How many works of `artist` `player` owns. */
  owned(player: string, artist: string): number {
    return this.collections.get(player)?.get(artist) ?? 0;
  }
}

// ---- realtv ----

export class RealtvSeat extends SeatBase {
  readonly game = "realtv" as const;
  readonly setup: RealtvSetup;
  obs!: RealtvObservation;

  constructor(start: StartRequest, setup: RealtvSetup) {
    super(start);
    this.setup = setup;
  }

  apply(obs: RealtvObservation): void {
    obs.decision = known(obs.decision, "REALTV_DECISION_UNSPECIFIED");
    this.obs = obs;
  }
}

export type Seat = DynamiteSeat | FingerSeat | BiddingSeat | AuctionSeat | RealtvSeat;

// ---- any game (the generic path) ----

/**
 * A seat of any game, for a bot with no per-game code (BotOptions.anyGame): the game's setup
 * and latest observation as proto-loader hands them over (proto field names, every field).
 */
export class AnySeat extends SeatBase {
  readonly game: GameName;
  readonly setup: Record<string, unknown>;
  obs: Record<string, unknown> = {};

  constructor(start: StartRequest, game: GameName) {
    super(start);
    this.game = game;
    this.setup = (start as unknown as Record<string, Record<string, unknown>>)[game] ?? {};
  }

  apply(obs: Record<string, unknown>): void {
    this.obs = obs;
  }
}

/**
 * An action object with proto field names, from one that may use JSON (lowerCamelCase) names
 * as JSON-lines bots write them: the kit's messages are keepCase, where a JSON name would be
 * dropped silently. Fields of neither name are kept, for the encoder to refuse.
 */
export function protoNames(type: string, v: unknown): unknown {
  const fields = MESSAGES[type];
  if (fields === undefined || v === null || typeof v !== "object" || Array.isArray(v)) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    const f = fields.find((f) => f.json === k || f.name === k);
    if (f === undefined) {
      out[k] = x;
    } else if (f.kind !== "message") {
      out[f.name] = x;
    } else if (f.label === "repeated" && Array.isArray(x)) {
      out[f.name] = x.map((e) => protoNames(f.type, e));
    } else if (f.label === "map" && x !== null && typeof x === "object") {
      out[f.name] = Object.fromEntries(Object.entries(x).map(([mk, e]) => [mk, protoNames(f.type, e)]));
    } else {
      out[f.name] = protoNames(f.type, x);
    }
  }
  return out;
}

/** The seat for a Start, or a reason to refuse it. */
export function newSeat(start: StartRequest): Seat | string {
  // The oneof's case name is the game (section 5); dispatch on it.
  switch (start.setup) {
    case "dynamite":
      return start.dynamite ? new DynamiteSeat(start, start.dynamite) : "no dynamite setup";
    case "finger":
      return start.finger ? new FingerSeat(start, start.finger) : "no finger setup";
    case "bidding":
      return start.bidding ? new BiddingSeat(start, start.bidding) : "no bidding setup";
    case "auction":
      return start.auction ? new AuctionSeat(start, start.auction) : "no auction setup";
    case "realtv":
      return start.realtv ? new RealtvSeat(start, start.realtv) : "no realtv setup";
    default:
      return `this bot does not play "${start.game}" (setup ${start.setup ?? "missing"})`;
  }
}
