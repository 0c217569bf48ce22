// The kit, package "arena": a bot imports it first; loading it runs the guard before anything
// else, so nothing but the handshake line reaches the real stdout.
import "./guard";
export { serve, Bot, SDK_VERSION, PROTOCOL_VERSION } from "./server";
export type { BotOptions, Strategies, FingerChoice } from "./server";
export * from "./games";
export * from "./types";
export { makeServerCert } from "./cert";
export { LANE_ENV, LANE_NAME, serveLane, takeLaneFd } from "./lane";
