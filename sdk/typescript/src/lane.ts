// The fast lane (docs/protocol.md, "The fast lane"): the host hands the bot its end of a
// socketpair at spawn and names the descriptor in ARENA_LANE_FD. A bot that finds a valid one
// announces "frames.v1" in Describe, and the host then sends every move of every seat this
// process holds there instead of ActStream; Describe, Start and End stay on gRPC.
//
// A frame is a 4-byte big-endian length N and N bytes of one protobuf message: host to bot an
// ActRequest, bot to host an ActResponse that echoes match_id, seat and step. The messages are
// decoded and encoded by the same @grpc/proto-loader definitions as the gRPC path, so a
// strategy sees the same objects on both. Node has one thread: the socket is read by the event
// loop (a blocking read would starve the gRPC calls that open and close seats).

import * as fs from "node:fs";
import * as net from "node:net";

import type { ActRequest, ActResponse, BotError } from "./types";

export const LANE_ENV = "ARENA_LANE_FD";
export const LANE_NAME = "frames.v1";
/** The largest frame read (the host's are a few hundred bytes): a longer one is a broken stream. */
export const MAX_FRAME = 64 * 1024 * 1024;

/** Turns frames' bodies into messages and back (the proto-loader method's own functions). */
export interface LaneCodec {
  decode(body: Buffer): ActRequest;
  encode(msg: ActResponse & { match_id: string; seat: number }): Buffer;
}

/** Answers one request; never throws (a failure of the strategy is a BotError). */
export type Answer = (req: ActRequest, arrivedAt: number) => Promise<ActResponse>;

/**
 * The lane's descriptor when the host offered one that is an open socket; else undefined, with
 * a line on stderr when the variable is set to something else. The variable is removed from
 * the environment, so programs the bot starts do not see it.
 */
export function takeLaneFd(env: NodeJS.ProcessEnv = process.env): number | undefined {
  const raw = env[LANE_ENV];
  if (raw === undefined) return undefined;
  delete env[LANE_ENV];
  let why = "";
  const fd = /^[0-9]{1,9}$/.test(raw) ? Number(raw) : -1;
  if (fd < 0) why = "not a descriptor number";
  else if (fd <= 2) why = "stdin, stdout or stderr, never the lane";
  else {
    try {
      if (!fs.fstatSync(fd).isSocket()) why = "not a socket";
    } catch (e) {
      why = `not an open descriptor (${(e as NodeJS.ErrnoException).code ?? String(e)})`;
    }
  }
  if (why) {
    process.stderr.write(
      `${LANE_ENV}=${JSON.stringify(raw.slice(0, 40))} is ${why}; moves go over gRPC. ` +
        `The arena host sets it itself: remove it from the bot's environment.\n`,
    );
    return undefined;
  }
  return fd;
}

/**
 * Serves the lane on sock until the host closes it. Requests of one seat are answered strictly
 * in order; seats do not wait for each other (an async strategy of one seat does not hold up
 * another). A stream that cannot be a lane (a frame longer than MAX_FRAME, a body that is not an
 * ActRequest) is said on stderr and the lane is closed, which the host sees as it sees EOF.
 */
export function serveLane(sock: net.Socket, codec: LaneCodec, answer: Answer): void {
  let buf: Buffer = Buffer.alloc(0);
  const queues = new Map<string, Promise<void>>();
  let open = true;

  const close = (why: string): void => {
    if (!open) return;
    open = false;
    process.stderr.write(`the fast lane: ${why}; closing it\n`);
    sock.destroy();
  };

  const reply = (req: ActRequest, res: ActResponse): void => {
    if (!open) return;
    const body = codec.encode({ ...res, match_id: req.match_id, seat: req.seat });
    const head = Buffer.allocUnsafe(4);
    head.writeUInt32BE(body.length, 0);
    sock.write(Buffer.concat([head, body]));
  };

  const dispatch = (req: ActRequest, arrivedAt: number): void => {
    const key = `${req.match_id}\u0000${req.seat}`;
    const run = async (): Promise<void> => {
      let res: ActResponse;
      try {
        res = await answer(req, arrivedAt);
      } catch (err) {
        // answer() turns every failure of a strategy into a BotError; this is the kit's own.
        const e = err instanceof Error ? err : new Error(String(err));
        const error: BotError = { kind: "BOT_ERROR_KIND_EXCEPTION", message: `${e.name}: ${e.message}`, traceback: e.stack ?? "" };
        res = { step: req.step, error };
      }
      reply(req, res);
    };
    const prev = queues.get(key);
    const next = prev ? prev.then(run) : run();
    queues.set(key, next);
    void next.then(() => {
      if (queues.get(key) === next) queues.delete(key);
    });
  };

  sock.on("data", (chunk: Buffer) => {
    const arrivedAt = performance.now();
    buf = buf.length === 0 ? chunk : Buffer.concat([buf, chunk]);
    // One read may hold several frames (every seat of a step) and may end inside one.
    while (open && buf.length >= 4) {
      const n = buf.readUInt32BE(0);
      if (n > MAX_FRAME) return close(`a frame of ${n} bytes (at most ${MAX_FRAME}): not a lane stream`);
      if (buf.length < 4 + n) break;
      const body = buf.subarray(4, 4 + n);
      buf = buf.subarray(4 + n);
      let req: ActRequest;
      try {
        req = codec.decode(body);
      } catch (err) {
        return close(`a frame that is not an ActRequest (${(err as Error).message})`);
      }
      dispatch(req, arrivedAt);
    }
  });
  sock.on("end", () => {
    // The host is done with the lane; Start, End and Shutdown still come over gRPC.
    if (buf.length > 0) process.stderr.write(`the fast lane closed inside a frame (${buf.length} bytes left)\n`);
    open = false;
  });
  sock.on("error", (err) => {
    if (open) process.stderr.write(`the fast lane: ${err.message}\n`);
    open = false;
  });
}

/** A socket on the lane's descriptor. */
export function laneSocket(fd: number): net.Socket {
  return new net.Socket({ fd, readable: true, writable: true });
}
