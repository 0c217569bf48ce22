// The kit: import this from a bot's entry point (after ./arena/guard).
export { serve, Bot, SDK_VERSION, PROTOCOL_VERSION } from "./server";
export type { BotOptions, Strategies, FingerChoice } from "./server";
export * from "./games";
export * from "./types";
export { makeServerCert } from "./cert";
export { LANE_ENV, LANE_NAME, serveLane, takeLaneFd } from "./lane";
