// The kit's runtime: environment checks, the TLS certificate, the gRPC server on the unix
// socket, the handshake line, the health service, and BotService with seats kept by
// (match_id, seat). Written from docs/protocol.md sections 1 to 10.

import * as fs from "node:fs";
import * as path from "node:path";
import * as crypto from "node:crypto";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";

import { makeServerCert } from "./cert";
import { LANE_NAME, laneSocket, serveLane, takeLaneFd } from "./lane";
import { newSeat, protoNames, AnySeat, AuctionSeat, BiddingSeat, DynamiteSeat, FingerSeat, RealtvSeat, Seat } from "./games";
import type {
  ActRequest,
  ActResponse,
  ActStreamRequest,
  ActStreamResponse,
  BotError,
  DescribeRequest,
  DescribeResponse,
  DynamiteMove,
  EndRequest,
  FingerMove,
  GameName,
  StartRequest,
  StartResponse,
} from "./types";
import { ENUMS, GAMES, GAME_MESSAGES } from "./types";

export const SDK_VERSION = "typescript/0.1.0";
export const PROTOCOL_VERSION = 1;
const COOKIE = "b0t-4r3n4-c0nt3st-v1";

/** A finger answer: a hit, or a switch with the hands it leaves. */
export interface FingerChoice {
  move: FingerMove;
  switch_left?: number;
  switch_right?: number;
}

type Maybe<T> = T | Promise<T>;

/** One function per game the bot plays; each gets the seat's state and returns the move. */
export interface Strategies {
  dynamite?: (seat: DynamiteSeat) => Maybe<DynamiteMove>;
  finger?: (seat: FingerSeat) => Maybe<FingerChoice>;
  /** Whole dollars. */
  bidding?: (seat: BiddingSeat) => Maybe<number>;
  /** A whole number (sent as a double). */
  auction?: (seat: AuctionSeat) => Maybe<number>;
  /** The id voted for; "" is no vote (a betrayal). */
  realtv?: (seat: RealtvSeat) => Maybe<string>;
}

export interface BotOptions {
  name: string;
  author: string;
  version?: string;
  strategies: Strategies;
  /**
   * The generic path: plays every game of the protocol that has no strategy above, with no
   * per-game code. It gets the seat (its game, setup and latest observation, proto field
   * names) and returns the game's action object, as a JSON-lines bot writes it (proto or
   * lowerCamelCase field names, enums by name).
   */
  anyGame?: (seat: AnySeat) => Maybe<Record<string, unknown>>;
  /** Called on End, after the final observation (if any) was applied to the seat. */
  onEnd?: (seat: Seat | AnySeat, end: EndRequest) => void;
}

const PROTO_DIR = path.join(__dirname, "..", "proto");

/** Thrown by a strategy's answer check: charged as garbage (INVALID_ANSWER), not a crash. */
class InvalidAnswer extends Error {}

// Every move but UNSPECIFIED, from the generated enum tables.
const DYNAMITE_MOVES = new Set<string>(ENUMS.DynamiteMove.slice(1));
const FINGER_MOVES = new Set<string>(ENUMS.FingerMove.slice(1));

function oneLine(s: string, max = 1000): string {
  const line = s.replace(/[\r\n]+/g, " ").trim();
  return line.length > max ? line.slice(0, max) : line;
}

function botError(kind: BotError["kind"], err: unknown): BotError {
  const e = err instanceof Error ? err : new Error(String(err));
  return {
    kind,
    message: oneLine(`${e.name}: ${e.message}`),
    traceback: (e.stack ?? "").slice(0, 3000),
  };
}

export class Bot {
  private readonly seats = new Map<string, Seat | AnySeat>();
  /** lanes: the move channels announced in Describe besides gRPC (the fast lane, when offered). */
  constructor(
    private readonly opts: BotOptions,
    private readonly lanes: string[] = [],
  ) {}

  private static key(matchId: string, seat: number): string {
    return `${matchId}\u0000${seat}`;
  }

  games(): GameName[] {
    return GAMES.filter((g) => this.hasStrategy(g) || this.opts.anyGame !== undefined);
  }

  // A game of the protocol may have no typed strategy in Strategies (one added after this kit's
  // typed layer): the generic path (anyGame) plays it.
  private hasStrategy(g: GameName): boolean {
    return (this.opts.strategies as Partial<Record<GameName, unknown>>)[g] !== undefined;
  }

  describe(_req: DescribeRequest): DescribeResponse {
    return {
      name: this.opts.name,
      author: this.opts.author,
      version: this.opts.version ?? "0.1.0",
      games: this.games(),
      sdk: SDK_VERSION,
      lanes: this.lanes,
    };
  }

  start(req: StartRequest): StartResponse {
    const game = GAMES.find((g) => g === req.setup);
    if (game !== undefined && !this.hasStrategy(game) && this.opts.anyGame !== undefined) {
      this.seats.set(Bot.key(req.match_id, req.seat), new AnySeat(req, game));
      return {};
    }
    const seat = newSeat(req);
    if (typeof seat === "string") return { error: seat };
    if (this.opts.strategies[seat.game] === undefined) return { error: `this bot does not play "${seat.game}"` };
    this.seats.set(Bot.key(req.match_id, req.seat), seat);
    return {};
  }

  /** One move; never throws: a failure of the strategy becomes a BotError. */
  async act(req: ActRequest, arrivedAt: number): Promise<ActResponse> {
    const step = req.step;
    try {
      const seat = this.seats.get(Bot.key(req.match_id, req.seat));
      if (!seat) throw new Error(`no seat (${req.match_id}, ${req.seat}): Start was not called or failed`);
      if (req.observation !== seat.game) {
        throw new InvalidAnswer(`a ${req.observation ?? "missing"} observation for a ${seat.game} seat`);
      }
      seat.beginMove(req, arrivedAt);
      if (seat instanceof AnySeat) {
        seat.apply((req as unknown as Record<string, Record<string, unknown>>)[seat.game]);
        const action = await this.opts.anyGame!(seat);
        if (action === null || typeof action !== "object" || Array.isArray(action)) {
          throw new InvalidAnswer(`not a ${GAME_MESSAGES[seat.game].action} object: ${JSON.stringify(action)}`);
        }
        return { step, [seat.game]: protoNames(GAME_MESSAGES[seat.game].action, action) } as ActResponse;
      }
      const s = this.opts.strategies;
      switch (seat.game) {
        case "dynamite": {
          seat.apply(req.dynamite!);
          const move = await s.dynamite!(seat);
          if (!DYNAMITE_MOVES.has(move)) throw new InvalidAnswer(`not a dynamite move: ${String(move)}`);
          return { step, dynamite: { move } };
        }
        case "finger": {
          seat.apply(req.finger!);
          const c = await s.finger!(seat);
          if (!c || !FINGER_MOVES.has(c.move)) throw new InvalidAnswer(`not a finger move: ${JSON.stringify(c)}`);
          if (c.move !== "FINGER_MOVE_SWITCH") return { step, finger: { move: c.move } };
          const l = c.switch_left ?? 0;
          const r = c.switch_right ?? 0;
          if (!Number.isInteger(l) || !Number.isInteger(r)) throw new InvalidAnswer(`switch to ${l} ${r}`);
          return { step, finger: { move: c.move, switch_left: l, switch_right: r } };
        }
        case "bidding": {
          seat.apply(req.bidding!);
          const bid = await s.bidding!(seat);
          if (!Number.isSafeInteger(bid)) throw new InvalidAnswer(`not a whole-dollar bid: ${String(bid)}`);
          return { step, bidding: { bid } };
        }
        case "auction": {
          seat.apply(req.auction!);
          const bid = await s.auction!(seat);
          if (typeof bid !== "number" || !Number.isFinite(bid)) throw new InvalidAnswer(`not a bid: ${String(bid)}`);
          return { step, auction: { bid } };
        }
        case "realtv": {
          seat.apply(req.realtv!);
          const vote = await s.realtv!(seat);
          if (typeof vote !== "string" || vote.length > 256) throw new InvalidAnswer(`not a vote: ${String(vote)}`);
          return { step, realtv: { vote_id: vote } };
        }
      }
    } catch (err) {
      const kind = err instanceof InvalidAnswer ? "BOT_ERROR_KIND_INVALID_ANSWER" : "BOT_ERROR_KIND_EXCEPTION";
      console.error(`seat (${req.match_id}, ${req.seat}) step ${step}:`, err);
      return { step, error: botError(kind, err) };
    }
  }

  end(req: EndRequest): void {
    const key = Bot.key(req.match_id, req.seat);
    const seat = this.seats.get(key);
    this.seats.delete(key);
    if (!seat) return;
    try {
      if (seat instanceof AnySeat) {
        if (req.observation === seat.game) seat.apply((req as unknown as Record<string, Record<string, unknown>>)[seat.game]);
      } else if (req.observation === seat.game) {
        // The final observation (dynamite, auction) reports the last round like any other.
        switch (seat.game) {
          case "dynamite":
            seat.apply(req.dynamite!);
            break;
          case "auction":
            seat.apply(req.auction!);
            break;
          case "finger":
            seat.apply(req.finger!);
            break;
          case "bidding":
            seat.apply(req.bidding!);
            break;
          case "realtv":
            seat.apply(req.realtv!);
            break;
        }
      }
      this.opts.onEnd?.(seat, req);
    } catch (err) {
      console.error(`End of seat (${req.match_id}, ${req.seat}):`, err);
    }
  }
}

function fail(message: string): never {
  process.stderr.write(message + "\n");
  process.exit(1);
}

/** Checks the environment of section 1, starts the server and prints the handshake line. */
export function serve(opts: BotOptions): void {
  const env = process.env;
  if (env.ARENA_BOT_COOKIE !== COOKIE) {
    fail(
      `${opts.name}: this is an arena bot (native gRPC). It is started by the arena host, not by hand:\n` +
        `  bin/arena play dynamite <this folder> bots/dynamite/cmd/paper\n` +
        `(ARENA_BOT_COOKIE is not set to the arena's cookie.)`,
    );
  }
  const versions = (env.PLUGIN_PROTOCOL_VERSIONS ?? "").split(",").map((v) => v.trim());
  if (!versions.includes(String(PROTOCOL_VERSION))) {
    fail(`${opts.name}: the host speaks arena protocol version(s) "${env.PLUGIN_PROTOCOL_VERSIONS ?? ""}", this bot speaks ${PROTOCOL_VERSION}`);
  }
  const dir = env.PLUGIN_UNIX_SOCKET_DIR;
  if (!dir) fail(`${opts.name}: PLUGIN_UNIX_SOCKET_DIR is not set`);
  const clientCert = env.PLUGIN_CLIENT_CERT;
  if (!clientCert) fail(`${opts.name}: PLUGIN_CLIENT_CERT is not set`);

  // Taken before anything else runs: programs the bot starts never see the host's channel.
  const laneFd = takeLaneFd(env);
  const bot = new Bot(opts, laneFd === undefined ? [] : [LANE_NAME]);
  const cert = makeServerCert();

  const loaded = protoLoader.loadSync(["arena/v1/bot.proto", "grpc/health/v1/health.proto"], {
    includeDirs: [PROTO_DIR],
    keepCase: true,
    longs: Number,
    enums: String,
    defaults: true,
    oneofs: true,
  });
  const pkg = grpc.loadPackageDefinition(loaded) as any; // eslint-disable-line @typescript-eslint/no-explicit-any

  const server = new grpc.Server({
    "grpc.max_receive_message_length": 8 * 1024 * 1024,
  });

  server.addService(pkg.arena.v1.BotService.service, {
    Describe(call: grpc.ServerUnaryCall<DescribeRequest, DescribeResponse>, cb: grpc.sendUnaryData<DescribeResponse>) {
      console.error(`Describe from host ${call.request.host_version}`);
      cb(null, bot.describe(call.request));
    },
    Start(call: grpc.ServerUnaryCall<StartRequest, StartResponse>, cb: grpc.sendUnaryData<StartResponse>) {
      let res: StartResponse;
      try {
        res = bot.start(call.request);
      } catch (err) {
        res = { error: oneLine(String(err instanceof Error ? err.stack : err), 3000) };
      }
      if (res.error) console.error(`refused seat (${call.request.match_id}, ${call.request.seat}): ${res.error}`);
      cb(null, res);
    },
    Act(call: grpc.ServerUnaryCall<ActRequest, ActResponse>, cb: grpc.sendUnaryData<ActResponse>) {
      const arrivedAt = performance.now();
      void bot.act(call.request, arrivedAt).then((res) => cb(null, res));
    },
    ActStream(call: grpc.ServerDuplexStream<ActStreamRequest, ActStreamResponse>) {
      // Requests of one seat, answered strictly in order.
      let queue: Promise<void> = Promise.resolve();
      call.on("data", (msg: ActStreamRequest) => {
        const arrivedAt = performance.now();
        queue = queue.then(async () => {
          const req = msg.act;
          const res: ActResponse = req
            ? await bot.act(req, arrivedAt)
            : { step: 0, error: { kind: "BOT_ERROR_KIND_INVALID_ANSWER", message: "ActStreamRequest without act" } };
          call.write({ act: res });
        });
      });
      call.on("end", () => {
        void queue.then(() => call.end());
      });
      call.on("error", (err) => console.error("ActStream:", err.message));
    },
    End(call: grpc.ServerUnaryCall<EndRequest, object>, cb: grpc.sendUnaryData<object>) {
      bot.end(call.request);
      cb(null, {});
    },
  });

  const SERVING = "SERVING";
  const healthy = (service: string): boolean => service === "" || service === "plugin";
  server.addService(pkg.grpc.health.v1.Health.service, {
    Check(call: grpc.ServerUnaryCall<{ service: string }, object>, cb: grpc.sendUnaryData<object>) {
      if (healthy(call.request.service)) cb(null, { status: SERVING });
      else cb({ code: grpc.status.NOT_FOUND, details: `unknown service ${call.request.service}` });
    },
    Watch(call: grpc.ServerWritableStream<{ service: string }, object>) {
      call.write({ status: healthy(call.request.service) ? SERVING : "SERVICE_UNKNOWN" });
      // The status never changes; the stream stays open until the client cancels it.
    },
  });

  const socket = path.join(dir, `plugin${crypto.randomBytes(6).toString("hex")}`);
  const creds = grpc.ServerCredentials.createSsl(
    Buffer.from(clientCert),
    [{ private_key: Buffer.from(cert.keyPem), cert_chain: Buffer.from(cert.certPem) }],
    true,
  );
  server.bindAsync(`unix:${socket}`, creds, (err) => {
    if (err) fail(`${opts.name}: cannot listen on ${socket}: ${err.message}`);
    try {
      if (!fs.lstatSync(socket).isSocket()) fail(`${opts.name}: ${socket} is not a socket`);
    } catch (e) {
      fail(`${opts.name}: ${socket}: ${(e as Error).message}`);
    }
    const b64 = cert.der.toString("base64").replace(/=+$/, "");
    const line = `1|${PROTOCOL_VERSION}|unix|${socket}|grpc|${b64}\n`;
    fs.writeSync(1, line);
    console.error(`${opts.name}: serving on ${socket} (${bot.games().join(", ")})`);
    if (laneFd !== undefined) {
      // The same decoder and encoder as Act's, so a strategy sees the same objects on both lanes.
      const act = (loaded["arena.v1.BotService"] as protoLoader.ServiceDefinition).Act;
      const codec = {
        decode: (body: Buffer) => act.requestDeserialize(body) as ActRequest,
        encode: (msg: ActResponse) => act.responseSerialize(msg),
      };
      serveLane(laneSocket(laneFd), codec, (req, arrivedAt) => bot.act(req, arrivedAt));
    }
  });

  process.on("uncaughtException", (err) => console.error("uncaught:", err));
  process.on("unhandledRejection", (err) => console.error("unhandled rejection:", err));
}
