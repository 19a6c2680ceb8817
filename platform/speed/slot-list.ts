/**
 * A set of live items in the slots of one array, with O(1) add and remove, for what a long-lived
 * structure holds per request in flight. A Map or Set would do the same job but not for the heap:
 * V8 grows and compacts their hash tables by copying into a new table, and the old one keeps its
 * entries (for iterators). Once a table lives in the old generation, every such copy leaves behind
 * a dead old table whose entries the scavenger must still treat as live, so each request in flight
 * at that moment is kept through scavenges and promoted until the next full GC: with one set and
 * one delete per request, about every request was (docs/decisions.md, "Request objects die young").
 * A slot emptied here holds nothing, and the array is copied only when it grows.
 */
export class SlotList<T> {
  private readonly slots: (T | undefined)[] = [];
  private readonly free: number[] = [];
  private count = 0;

  /** Stores an item; answers its slot, for `get` and `remove`. */
  add(item: T): number {
    const slot = this.free.pop() ?? this.slots.length;
    this.slots[slot] = item;
    this.count++;
    return slot;
  }

  /** The item in a slot, or undefined once removed. */
  get(slot: number): T | undefined {
    return this.slots[slot];
  }

  /** Empties a slot; removing an empty slot does nothing. A slot is removed once: `add` may hand it out again. */
  remove(slot: number): void {
    if (this.slots[slot] === undefined) return;
    this.slots[slot] = undefined;
    this.free.push(slot);
    this.count--;
  }

  /** How many items are held. */
  get size(): number {
    return this.count;
  }

  /** The items held; one removed while iterating is not visited after its removal. */
  *[Symbol.iterator](): IterableIterator<T> {
    for (let slot = 0; slot < this.slots.length; slot++) {
      const item = this.slots[slot];
      if (item !== undefined) yield item;
    }
  }
}

/** What SlotList and its plain alternative share. */
export interface LiveList<T> extends Iterable<T> {
  add(item: T): number;
  get(slot: number): T | undefined;
  remove(slot: number): void;
  readonly size: number;
}

/** The plain way (a Map by a counter), for SPEED_PLUMBING without `slot-list`. */
export class MapList<T> implements LiveList<T> {
  private readonly items = new Map<number, T>();
  private next = 0;
  add(item: T): number {
    const slot = this.next++;
    this.items.set(slot, item);
    return slot;
  }
  get(slot: number): T | undefined {
    return this.items.get(slot);
  }
  remove(slot: number): void {
    this.items.delete(slot);
  }
  get size(): number {
    return this.items.size;
  }
  [Symbol.iterator](): IterableIterator<T> {
    return this.items.values();
  }
}

/** A SlotList, or the plain MapList when `slotList` is off. */
export const liveList = <T>(slotList: boolean): LiveList<T> => (slotList ? new SlotList<T>() : new MapList<T>());
