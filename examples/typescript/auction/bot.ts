// auction: aim at the artist whose works come up soonest (counting the works already
// owned), spread the money over the works still needed, and block any opponent that would
// win with the item now up.

import { serve } from "arena"; // first: loading the kit keeps the real stdout for the handshake
import type { AuctionSeat } from "arena";

interface Memory {
  /** artist -> the indices of its items, ascending */
  positions: Map<string, number[]>;
}

/** The first index in a sorted list that is >= x. */
function lowerBound(list: number[], x: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function auction(seat: AuctionSeat): number {
  const o = seat.obs;
  const setup = seat.setup;
  const me = setup.own_name;
  const money = o.own_money;
  if (money <= 0 || o.item === "") return 0;

  let mem = seat.memory.auction as Memory | undefined;
  if (!mem) {
    const positions = new Map<string, number[]>();
    setup.auction_items.forEach((artist, i) => {
      const l = positions.get(artist) ?? [];
      l.push(i);
      positions.set(artist, l);
    });
    mem = { positions };
    seat.memory.auction = mem;
  }

  // Block: an opponent (still in) that completes its collection with this item.
  let threat = -1;
  for (const [name, wealth] of Object.entries(o.wealth_table)) {
    if (name === me || wealth < 0) continue;
    if (seat.owned(name, o.item) >= setup.required_count - 1) threat = Math.max(threat, wealth);
  }

  // Target: the artist I can complete earliest.
  let target = "";
  let finish = Infinity;
  for (const [artist, list] of mem.positions) {
    const need = setup.required_count - seat.owned(me, artist);
    const k = lowerBound(list, o.item_index) + need - 1;
    if (need > 0 && k < list.length && list[k] < finish) {
      finish = list[k];
      target = artist;
    }
  }

  let bid = 0;
  if (o.item === target) {
    const need = setup.required_count - seat.owned(me, target);
    bid = need <= 1 ? money : Math.floor(money / need);
  }
  if (threat >= 0) bid = Math.max(bid, Math.min(money, threat + 1));
  return Math.max(0, Math.min(money, Math.floor(bid)));
}

serve({ name: "ts-collector", author: "arena examples", version: "0.1.0", strategies: { auction } });
