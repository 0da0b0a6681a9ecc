/**
 * mem0 ids over engram's lineage. engram never edits a record: an UPDATE writes a new record
 * and points the old one at it (`supersededBy`), and so does an erasure that rebuilds one. A
 * mem0 id names the whole chain: it is the id of its first record (the ADD), so it stays the
 * same across every UPDATE, and it resolves to the chain's last record (its head).
 */
import type { MemoryRecord } from 'engram';

/** Reads a record of the owner by id, any state; undefined when there is none. */
export type ReadRecord = (id: string) => Promise<MemoryRecord | undefined>;

/**
 * The record this one superseded: one its history links to (the `created` entry of an UPDATE,
 * the `regenerated` entry of a rebuilt record; latest first) whose `supersededBy` is this one.
 */
async function predecessorOf(record: MemoryRecord, read: ReadRecord): Promise<MemoryRecord | undefined> {
  for (const entry of [...record.history].reverse()) {
    if (entry.related === undefined || (entry.event !== 'created' && entry.event !== 'regenerated')) continue;
    const other = await read(entry.related);
    if (other && other.id !== record.id && other.supersededBy === record.id) return other;
  }
  return undefined;
}

/** The first record of the chain `record` is on: its id is the mem0 id. */
export async function rootOf(record: MemoryRecord, read: ReadRecord): Promise<MemoryRecord> {
  const seen = new Set([record.id]);
  let current = record;
  for (let previous = await predecessorOf(current, read); previous && !seen.has(previous.id); previous = await predecessorOf(current, read)) {
    seen.add(previous.id);
    current = previous;
  }
  return current;
}

/** The chain from `record` on, following `supersededBy` to its last record (active, or a tombstone). */
export async function chainFrom(record: MemoryRecord, read: ReadRecord): Promise<MemoryRecord[]> {
  const chain = [record];
  const seen = new Set([record.id]);
  for (let next = record.supersededBy; next !== undefined && !seen.has(next); ) {
    const successor = await read(next);
    if (!successor) break;
    chain.push(successor);
    seen.add(successor.id);
    next = successor.supersededBy;
  }
  return chain;
}

/** The last record of the chain from `record`. */
export async function headOf(record: MemoryRecord, read: ReadRecord): Promise<MemoryRecord> {
  return (await chainFrom(record, read)).at(-1)!;
}

/** A reader that asks engram once per id within one call. */
export function cachedReader(read: ReadRecord): ReadRecord {
  const cache = new Map<string, Promise<MemoryRecord | undefined>>();
  return (id) => {
    let found = cache.get(id);
    if (!found) cache.set(id, (found = read(id)));
    return found;
  };
}
