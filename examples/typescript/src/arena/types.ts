// The arena.v1 messages as @grpc/proto-loader hands them over with the options of
// server.ts (keepCase: proto field names; longs: Number; enums: String; defaults: true;
// oneofs: true, which adds a field naming the set case of every oneof). Written from
// proto/arena/v1/*.proto; a field the host does not send is its default here.

export type GameName = "dynamite" | "finger" | "bidding" | "auction" | "realtv";
export const GAMES: readonly GameName[] = ["dynamite", "finger", "bidding", "auction", "realtv"];

// ---- dynamite ----

export type DynamiteMove =
  | "DYNAMITE_MOVE_UNSPECIFIED"
  | "DYNAMITE_MOVE_ROCK"
  | "DYNAMITE_MOVE_PAPER"
  | "DYNAMITE_MOVE_SCISSORS"
  | "DYNAMITE_MOVE_DYNAMITE"
  | "DYNAMITE_MOVE_WATER";

export interface DynamiteSetup {
  target_score: number;
  max_rounds: number;
  dynamite_per_player: number;
}

export interface DynamiteObservation {
  round: number;
  last_own: DynamiteMove;
  last_opponent: DynamiteMove;
  own_score: number;
  opponent_score: number;
  own_dynamite_left: number;
  opponent_dynamite_left: number;
  stake: number;
}

export interface DynamiteAction {
  move: DynamiteMove;
}

// ---- finger ----

export type FingerMove =
  | "FINGER_MOVE_UNSPECIFIED"
  | "FINGER_MOVE_LEFT_TO_LEFT"
  | "FINGER_MOVE_LEFT_TO_RIGHT"
  | "FINGER_MOVE_RIGHT_TO_LEFT"
  | "FINGER_MOVE_RIGHT_TO_RIGHT"
  | "FINGER_MOVE_SWITCH";

export interface FingerSetup {
  games: number;
  max_rounds: number;
  own_name: string;
  opponent_name: string;
}

export interface FingerAction {
  move: FingerMove;
  switch_left: number;
  switch_right: number;
}

export interface FingerHistoryEntry {
  player: string;
  action: FingerAction | null;
  own: boolean;
}

export interface FingerObservation {
  game: number;
  new_game: boolean;
  starting_player: string;
  round: number;
  own_left: number;
  own_right: number;
  opponent_left: number;
  opponent_right: number;
  recent: FingerHistoryEntry[];
  games_won: number;
  games_lost: number;
  games_both_lost: number;
  started: boolean;
}

// ---- bidding ----

export type BiddingPlayer = "BIDDING_PLAYER_UNSPECIFIED" | "BIDDING_PLAYER_A" | "BIDDING_PLAYER_B";

export interface BiddingSetup {
  games: number;
  start_money: number;
  max_rounds: number;
  own_name: string;
  opponent_name: string;
}

export interface BiddingObservation {
  game: number;
  new_game: boolean;
  player: BiddingPlayer;
  own_money: number;
  opponent_money: number;
  start_money: number;
  bottle_position: number;
  has_last: boolean;
  last_own_bid: number;
  last_opponent_bid: number;
  rounds_won: number;
  rounds_lost: number;
  draw_advantage: boolean;
  round: number;
  opponent_name: string;
  games_won: number;
  games_lost: number;
  games_drawn: number;
}

export interface BiddingAction {
  bid: number;
}

// ---- auction ----

export interface AuctionSetup {
  artists_num: number;
  required_count: number;
  auction_items: string[];
  player_count: number;
  player_names: string[];
  own_name: string;
  start_money: number;
}

export interface AuctionObservation {
  item_index: number;
  finished: boolean;
  bid_item: string;
  bid_winner: string;
  winning_bid: number;
  wealth_table: Record<string, number>;
  remain_time: Record<string, number>;
  game_winner: string;
  own_money: number;
  item: string;
}

export interface AuctionAction {
  bid: number;
}

// ---- realtv ----

export type RealtvDecision = "REALTV_DECISION_UNSPECIFIED" | "REALTV_DECISION_ELIMINATION" | "REALTV_DECISION_TIE";

export interface RealtvSetup {
  id: string;
  name: string;
  strength: number;
  phases: number;
  players_per_island: number;
  instance: number;
}

export interface RealtvVotes {
  first_vote: string;
  tie_vote: string;
}

export interface RealtvPlayer {
  id: string;
  name: string;
  strength: number;
  score: number;
  previous_moves: RealtvVotes[];
}

export interface RealtvGameContext {
  total_bots: number;
  total_humans: number;
  phase_index: number;
}

export interface RealtvObservation {
  decision: RealtvDecision;
  island_index: number;
  game: RealtvGameContext | null;
  active_players: Record<string, RealtvPlayer>;
  betrayers: Record<string, RealtvPlayer>;
  eliminated_players: Record<string, RealtvPlayer>;
  current_ties: Record<string, RealtvPlayer>;
  own_score: number;
  own_id: string;
  day: number;
}

export interface RealtvAction {
  vote_id: string;
}

// ---- BotService ----

export interface DescribeRequest {
  host_version: string;
}

export interface DescribeResponse {
  name: string;
  author: string;
  version: string;
  games: string[];
  sdk: string;
  /** Move channels besides ActStream: ["frames.v1"] when the bot reads its moves on the fast lane. */
  lanes?: string[];
}

export interface StartRequest {
  match_id: string;
  seat: number;
  game: string;
  players: string[];
  deadline_ms: number;
  clock_ms: number;
  setup?: string; // the oneof's case name
  dynamite?: DynamiteSetup | null;
  finger?: FingerSetup | null;
  bidding?: BiddingSetup | null;
  auction?: AuctionSetup | null;
  realtv?: RealtvSetup | null;
}

export interface StartResponse {
  error?: string;
}

export interface ActRequest {
  match_id: string;
  seat: number;
  step: number;
  deadline_ms: number;
  clock_remaining_ms: number;
  clock_mode: string; // "CLOCK_MODE_CPU", "CLOCK_MODE_WALL" (or UNSPECIFIED from an older host)
  budget_us: number;
  bank_remaining_us: number;
  wall_cap_ms: number;
  observation?: string; // the oneof's case name
  dynamite?: DynamiteObservation | null;
  finger?: FingerObservation | null;
  bidding?: BiddingObservation | null;
  auction?: AuctionObservation | null;
  realtv?: RealtvObservation | null;
}

export type BotErrorKind = "BOT_ERROR_KIND_UNSPECIFIED" | "BOT_ERROR_KIND_EXCEPTION" | "BOT_ERROR_KIND_INVALID_ANSWER";

export interface BotError {
  kind: BotErrorKind;
  message: string;
  traceback?: string;
}

export interface ActResponse {
  step: number;
  /** Echoes of the request's, set on the fast lane (one channel carries every seat). */
  match_id?: string;
  seat?: number;
  dynamite?: Partial<DynamiteAction>;
  finger?: Partial<FingerAction>;
  bidding?: BiddingAction;
  auction?: AuctionAction;
  realtv?: RealtvAction;
  error?: BotError;
}

export interface ActStreamRequest {
  act: ActRequest | null;
}

export interface ActStreamResponse {
  act: ActResponse;
}

export type Result = "RESULT_UNSPECIFIED" | "RESULT_WIN" | "RESULT_LOSS" | "RESULT_DRAW";

export interface EndRequest {
  match_id: string;
  seat: number;
  result: Result;
  score: number;
  observation?: string;
  dynamite?: DynamiteObservation | null;
  finger?: FingerObservation | null;
  bidding?: BiddingObservation | null;
  auction?: AuctionObservation | null;
  realtv?: RealtvObservation | null;
}
