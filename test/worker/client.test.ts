import '@vitest/web-worker';
import { describe, expect, it, vi } from 'vitest';
import { COMPUTE_METHODS, conceptsOnce, createComputeClient } from '../../src/worker/client';
import { createCompute } from '../../src/worker/compute';
import { readConcepts } from '../../src/worker/concepts-asset';
import { decodeConcepts } from '../../src/worker/concepts';
import { columnarRows } from '../../src/store/vector-pack';
import { lexicalTerms } from '../../src/embed/terms';
import { DEFAULT_WEIGHTS } from '../../src/schema';
import type { IndexRows } from '../../src/worker/api';

/** The methods the running compute module has: what a client must forward. */
const computeMethods = () =>
  Object.entries(createCompute())
    .filter(([, value]) => typeof value === 'function')
    .map(([name]) => name)
    .sort();

describe('createComputeClient', () => {
  it('forwards exactly the compute module’s methods when the list is compared with the running module', () => {
    expect([...COMPUTE_METHODS].sort()).toEqual(computeMethods());
  });

  for (const worker of ['off', 'auto'] as const) {
    it(`has a callable function for every compute method when worker is ${worker}`, async () => {
      const client = createComputeClient({ worker });
      expect(client.location).toBe(worker === 'off' ? 'in-process' : 'worker');
      const missing = computeMethods().filter((method) => typeof (client as unknown as Record<string, unknown>)[method] !== 'function');
      expect(missing).toEqual([]);
      // One real round trip through the forwarding: the answer is the compute module's.
      expect(await client.partitionVersion('none')).toBe(-1);
      expect((await client.embed(['tea'], 8))[0]).toEqual(createCompute().embed(['tea'], 8)[0]);
      client.close();
    });

    it(`starts loading the semantic table with its first call, not its first scan, when worker is ${worker}`, async () => {
      const tableBytes = decodeConcepts(await readConcepts()).reduce((sum, array) => sum + array.byteLength, 0);
      const client = createComputeClient({ worker });
      // No scan: the first call starts the table's load (it does not wait for the download), and
      // the table is then counted in what compute holds.
      let { bytes } = await client.stats();
      for (let tries = 0; bytes !== tableBytes && tries < 200; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 25));
        ({ bytes } = await client.stats());
      }
      expect(bytes).toBe(tableBytes);
      client.close();
      const lexical = createComputeClient({ worker, semantic: false });
      expect((await lexical.stats()).bytes).toBe(0);
      lexical.close();
    });
  }
});

describe('createComputeClient (a partition export through the worker)', () => {
  const DIM = 16;
  /** 120 rows; a fresh copy each call, as a load's rows move to the worker. */
  const rows = (): IndexRows => {
    const embedder = createCompute();
    const texts = Array.from({ length: 120 }, (_, i) => `the user likes item ${i} and tea number ${i % 9}`);
    const vectors = embedder.embed(texts, DIM);
    return columnarRows(
      texts.map((text, i) => ({
        id: `m${i}`,
        embedderId: 'hash',
        embedding: vectors[i]!,
        updatedAt: i,
        halfLifeDays: 30,
        importance: 0.5,
        scope: i % 5 === 0 ? ('session' as const) : ('user' as const),
        sessionId: i % 5 === 0 ? 's' : '',
        terms: lexicalTerms(text),
      })),
      DIM,
    );
  };

  it('hands back the in-process export (buffers moved, not copied), and the worker still scans the partition as before', async () => {
    const inProcess = createCompute();
    inProcess.loadPartition('p', 3, DIM, rows());
    // The client hands the worker the semantic channel's table before its first scan (semantic: true by default).
    inProcess.loadConcepts(await readConcepts());
    const client = createComputeClient({ worker: 'auto' });
    try {
      expect(client.location).toBe('worker');
      await client.loadPartition('p', 3, DIM, rows());
      const exported = await client.exportPartition('p', 32);
      expect(exported!.chunks).toHaveLength(4);
      expect(exported).toEqual(inProcess.exportPartition('p', 32));
      // The export moved copies: the worker's own rows are whole, a second export and a scan agree.
      expect(await client.exportPartition('p', 32)).toEqual(exported);
      const request = { partitions: ['p'], query: createCompute().embed(['tea number 3'], DIM)[0]!, queryText: 'tea number 3', now: 200, weights: { ...DEFAULT_WEIGHTS }, k: 5, scopes: ['user' as const] };
      expect(await client.scan(request)).toEqual(inProcess.scan(request));
    } finally {
      client.close();
    }
  });

  for (const worker of ['off', 'auto'] as const) {
    it(`lets a scan without query text run while the semantic table is still downloading, and ranks one with text as a warm compute does once it is there, when worker is ${worker}`, async () => {
      let deliver: (table: ArrayBuffer) => void = () => {};
      const stalled = new Promise<ArrayBuffer>((resolve) => (deliver = resolve));
      const client = createComputeClient({ worker, readConcepts: () => stalled });
      const warm = createCompute();
      warm.loadConcepts(await readConcepts());
      warm.loadPartition('p', 3, DIM, rows());
      const lexicalOnly = createCompute();
      lexicalOnly.loadPartition('p', 3, DIM, rows());
      try {
        await client.loadPartition('p', 3, DIM, rows());
        const request = { partitions: ['p'], query: createCompute().embed(['a beverage, number 3'], DIM)[0]!, queryText: 'a beverage, number 3', now: 200, weights: { ...DEFAULT_WEIGHTS }, k: 5, scopes: ['user' as const] };
        // "beverage" reaches "tea" through the table only: a scan without it would rank otherwise.
        expect(warm.scan(request)).not.toEqual(lexicalOnly.scan(request));
        // The vector-only scan reads nothing of the table: it answers during the stalled download, as a warm one.
        const { queryText: _, ...vectorOnly } = request;
        expect(await client.scan(vectorOnly)).toEqual(warm.scan(vectorOnly));
        let answered = false;
        const withText = client.scan(request).then((result) => ((answered = true), result));
        await new Promise((resolve) => setTimeout(resolve, 100));
        expect(answered).toBe(false);
        deliver(await readConcepts());
        expect(await withText).toEqual(warm.scan(request));
      } finally {
        client.close();
      }
    });
  }
});

describe('the semantic table load (conceptsOnce)', () => {
  it('keeps a call that does not use the table off a stalled download, and holds it during the hand-over only', async () => {
    let deliver: (table: ArrayBuffer) => void = () => {};
    let handOver: () => void = () => {};
    const reads: ArrayBuffer[] = [];
    const table = new ArrayBuffer(8);
    const load = conceptsOnce(
      (table) => {
        reads.push(table);
        return new Promise<void>((resolve) => (handOver = resolve));
      },
      () => new Promise<ArrayBuffer>((resolve) => (deliver = resolve)),
    );
    // First call: the download starts, and a call that does not scan has nothing to wait for.
    expect(load.handing()).toBeUndefined();
    const scan = load.start();
    let scanned = false;
    void scan.then(() => (scanned = true));
    deliver(table);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(reads).toEqual([table]);
    // While compute takes the table, a call waits for that, and so does the scan.
    const during = load.handing();
    expect(during).toBeInstanceOf(Promise);
    expect(scanned).toBe(false);
    handOver();
    await during;
    await scan;
    expect(scanned).toBe(true);
    expect(load.handing()).toBeUndefined();
  });

  it('fetches the table again after a fetch error, but not after a decode error, which it logs once', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      let reads = 0;
      let loads = 0;
      const offline = conceptsOnce(
        async () => {
          loads++;
        },
        async () => {
          if (++reads === 1) throw new Error('offline');
          return new ArrayBuffer(8);
        },
      );
      await offline.start();
      await offline.start();
      expect([reads, loads]).toEqual([2, 1]);
      reads = 0;
      loads = 0;
      const html = conceptsOnce(
        async () => {
          loads++;
          throw new Error("engram's WordNet table is not 'engram-concepts wn31-1' but starts '<!doctype html>'");
        },
        async () => {
          reads++;
          return new ArrayBuffer(8);
        },
      );
      for (let scan = 0; scan < 3; scan++) await html.start();
      expect([reads, loads]).toEqual([1, 1]);
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0]?.join(' '))).toContain('WordNet table');
    } finally {
      warn.mockRestore();
    }
  });
});
