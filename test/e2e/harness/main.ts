// The browser side of test/e2e/reliability.test.ts: the library, bundled from src/ by Vite
// (compute in a real module Worker, real IndexedDB), exposed on `window` so the test can drive
// it with page.evaluate. Besides the public API: a read-only dump of a raw database (the erasure
// check reads every object store; it never writes engram's database), a main-thread stall
// watcher, a one-candidate-per-message extractor (a public plug-in, for fast bulk writes), and
// a filler writer for a *separate* database that forces LevelDB to compact.
import * as engram from '../../../src/index';
import { durability } from './durability';

/** Every row of every object store of one IndexedDB database, as structured-clone values. */
async function dumpDatabase(name: string): Promise<Record<string, unknown[]>> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open(name);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
    // Opening a name that does not exist creates it: abort that, the dump is read-only.
    request.onupgradeneeded = () => request.transaction?.abort();
  });
  try {
    const stores = [...db.objectStoreNames];
    const out: Record<string, unknown[]> = {};
    if (stores.length === 0) return out;
    const tx = db.transaction(stores, 'readonly');
    await Promise.all(
      stores.map(
        (store) =>
          new Promise<void>((resolve, reject) => {
            const request = tx.objectStore(store).getAll();
            request.onsuccess = () => {
              out[store] = request.result as unknown[];
              resolve();
            };
            request.onerror = () => reject(request.error);
          }),
      ),
    );
    return out;
  } finally {
    db.close();
  }
}

/** Every string reachable from `value` (keys included), typed arrays decoded as text too. */
function stringsIn(value: unknown, out: string[] = [], seen = new Set<unknown>()): string[] {
  if (typeof value === 'string') {
    out.push(value);
    return out;
  }
  if (value === null || typeof value !== 'object' || seen.has(value)) return out;
  seen.add(value);
  if (ArrayBuffer.isView(value)) {
    const bytes = new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
    out.push(new TextDecoder('utf-8').decode(bytes), new TextDecoder('utf-16le').decode(bytes));
    return out;
  }
  for (const [key, inner] of Object.entries(value)) {
    out.push(key);
    stringsIn(inner, out, seen);
  }
  if (value instanceof Map) for (const [key, inner] of value) stringsIn(key, out, seen), stringsIn(inner, out, seen);
  if (value instanceof Set) for (const inner of value) stringsIn(inner, out, seen);
  return out;
}

/** How many stored values (rows, in any object store) contain `needle` anywhere. */
async function countInDatabase(name: string, needle: string): Promise<{ hits: number; rows: number; where: string[] }> {
  const dump = await dumpDatabase(name);
  let hits = 0;
  let rows = 0;
  const where: string[] = [];
  for (const [store, values] of Object.entries(dump)) {
    for (const value of values) {
      rows += 1;
      if (stringsIn(value).some((text) => text.includes(needle))) {
        hits += 1;
        where.push(store);
      }
    }
  }
  return { hits, rows, where };
}

/**
 * Records main-thread stalls while it runs: long tasks (PerformanceObserver 'longtask', tasks
 * over 50 ms) and the largest gap between timer ticks scheduled every 1 ms (catches shorter ones).
 */
function watchMainThread(): { stop(): { longestTaskMs: number; longTasks: number; maxGapMs: number } } {
  let longestTaskMs = 0;
  let longTasks = 0;
  let maxGapMs = 0;
  let observer: PerformanceObserver | undefined;
  try {
    observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        longTasks += 1;
        longestTaskMs = Math.max(longestTaskMs, entry.duration);
      }
    });
    observer.observe({ type: 'longtask', buffered: false });
  } catch {
    observer = undefined;
  }
  let last = performance.now();
  let running = true;
  const tick = () => {
    const now = performance.now();
    maxGapMs = Math.max(maxGapMs, now - last);
    last = now;
    if (running) setTimeout(tick, 1);
  };
  setTimeout(tick, 1);
  return {
    stop() {
      running = false;
      const now = performance.now();
      maxGapMs = Math.max(maxGapMs, now - last);
      if (observer) {
        for (const entry of observer.takeRecords()) {
          longTasks += 1;
          longestTaskMs = Math.max(longestTaskMs, entry.duration);
        }
        observer.disconnect();
      }
      return { longestTaskMs, longTasks, maxGapMs };
    },
  };
}

/**
 * A plug-in extractor (the public `extractor` option) that turns every user message into one
 * candidate, its topic taken from a `[topic]` prefix. It lets one `ingest` write many distinct
 * memories in one consolidation, so a test can build 10k memories through the public API fast.
 */
function messagePerFactExtractor(): engram.Extractor {
  return {
    extract: (messages) =>
      messages.map((message) => {
        const match = /^\[([^\]]+)\] (.*)$/s.exec(message.content);
        return { content: match ? match[2]! : message.content, topic: match ? match[1]! : 'note', confidence: 0.8, excerpt: '' };
      }),
  };
}

/**
 * Writes `megabytes` of filler into a separate database of this origin (never engram's), in
 * 2 MB transactions of 48 kB values (below the size at which Chromium moves a value out to a
 * blob file), then deletes that database. On Chromium's LevelDB backing store this fills and
 * flushes the write buffer several times, which is what makes LevelDB compact older files.
 */
function openFiller(name: string): Promise<IDBDatabase> {
  return new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open(name, 1);
    request.onupgradeneeded = () => request.result.createObjectStore('filler');
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

/**
 * Creates (and keeps) a database of the origin. Made before the database under test, its keys sort
 * below that database's in LevelDB (keys start with the database id, given in creation order), so
 * churn written to it and to one made later spans the tested database's key range.
 */
async function createLowDatabase(name: string): Promise<void> {
  const db = await openFiller(name);
  db.close();
}

/**
 * Forces LevelDB compaction: writes `megabytes` of varied values through a database of the origin
 * that is deleted afterwards. With `below` (a database from createLowDatabase), every other write
 * goes there instead, so the flushed tables span the tested database's key range and every
 * compaction into the level holding its files must merge them (a table that overlaps nothing is
 * moved down a level unchanged, keeping overwritten values: the CI flake this fixes).
 */
async function churnOtherDatabase(name: string, megabytes: number, below?: string): Promise<void> {
  const dbs = [await openFiller(name), ...(below ? [await openFiller(below)] : [])];
  const valueChars = 24 * 1024; // two-byte string below: 48 kB per value
  let key = 0;
  for (let written = 0, round = 0; written < megabytes * 1024 * 1024; round++) {
    const db = dbs[round % dbs.length]!;
    await new Promise<void>((resolve, reject) => {
      const tx = db.transaction('filler', 'readwrite');
      const store = tx.objectStore('filler');
      for (let bytes = 0; bytes < 2 * 1024 * 1024; bytes += valueChars * 2) {
        // Varied text (not one repeated character), so a compressing layer cannot shrink it away.
        let value = '\u0100';
        while (value.length < valueChars) value += (key * 2654435761 + value.length * 40503).toString(36);
        store.put(value.slice(0, valueChars), key++);
      }
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error);
    });
    written += 2 * 1024 * 1024;
  }
  for (const db of dbs) db.close();
  await new Promise<void>((resolve, reject) => {
    const request = indexedDB.deleteDatabase(name);
    request.onsuccess = () => resolve();
    request.onerror = () => reject(request.error);
  });
}

const harness = { dumpDatabase, countInDatabase, watchMainThread, messagePerFactExtractor, churnOtherDatabase, createLowDatabase };

declare global {
  interface Window {
    engram: typeof engram;
    harness: typeof harness;
    /** Fixture restore and state comparison for test/e2e/durability.test.ts. */
    durability: typeof durability;
    /** The memory a test opened with `createMemory` (the test sets it). */
    memory?: engram.Memory;
    /** Set once `engram` and `harness` are on window. */
    harnessReady: boolean;
  }
}

window.engram = engram;
window.harness = harness;
window.durability = durability;
window.harnessReady = true;
