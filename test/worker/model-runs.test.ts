/**
 * How a hosted model's call is cut into runs (worker/model-runtime.ts runGroups): every text
 * pads to the longest of its run, and each run has a fixed cost, so the runs are the cheapest
 * cut of the texts sorted by length. The runtime's own use of it is checked with a stand-in for
 * transformers.js (a module file the test writes), whose pipeline records the runs it is given.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { loadModelRuntime, RUN_BATCH, RUN_OVERHEAD_TOKENS, runGroups } from '../../src/worker/model-runtime';

/** What a cut costs: each run its overhead plus its texts × its longest. */
const costOf = (groups: number[][], lengths: readonly number[]) => groups.reduce((sum, group) => sum + RUN_OVERHEAD_TOKENS + group.length * Math.max(...group.map((i) => lengths[i]!)), 0);

/** The cheapest cost over every cut of the sorted texts into runs of at most `maxRun`, by trying them all. */
function cheapest(lengths: readonly number[], maxRun: number): number {
  const order = lengths.map((_, i) => i).sort((a, b) => lengths[a]! - lengths[b]! || a - b);
  let best = Number.POSITIVE_INFINITY;
  for (let cuts = 0; cuts < 1 << (order.length - 1); cuts++) {
    const groups: number[][] = [[order[0]!]];
    for (let i = 1; i < order.length; i++) cuts & (1 << (i - 1)) ? groups.push([order[i]!]) : groups.at(-1)!.push(order[i]!);
    if (groups.every((group) => group.length <= maxRun)) best = Math.min(best, costOf(groups, lengths));
  }
  return best;
}

describe('runGroups', () => {
  it('runs texts of like length in one run', () => {
    expect(runGroups([9, 8, 10, 9, 8])).toEqual([[1, 4, 0, 3, 2]]);
  });

  it('runs a long text apart from short ones when padding them to it costs more than a run', () => {
    // An ingest's texts: short turns and facts, and one long turn.
    const lengths = [8, 14, 11, 17, 9, 8, 9, 10, 120];
    const groups = runGroups(lengths);
    expect(groups.at(-1)).toEqual([8]);
    expect(costOf(groups, lengths)).toBeLessThan(costOf([lengths.map((_, i) => i)], lengths));
  });

  it('keeps every run to RUN_BATCH texts and every text in exactly one run', () => {
    const lengths = Array.from({ length: 100 }, (_, i) => 10 + (i % 3));
    const groups = runGroups(lengths);
    expect(Math.max(...groups.map((group) => group.length))).toBeLessThanOrEqual(RUN_BATCH);
    expect(groups.flat().sort((a, b) => a - b)).toEqual(lengths.map((_, i) => i));
  });

  it('finds the cheapest cut, checked against every cut of small calls, with and without the run limit binding', () => {
    let seed = 7;
    const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    for (const maxRun of [3, RUN_BATCH]) {
      for (let trial = 0; trial < 60; trial++) {
        const lengths = Array.from({ length: 1 + Math.floor(random() * 11) }, () => 3 + Math.floor(random() ** 3 * 80));
        const groups = runGroups(lengths, maxRun);
        expect(Math.max(...groups.map((group) => group.length))).toBeLessThanOrEqual(maxRun);
        expect(costOf(groups, lengths)).toBe(cheapest(lengths, maxRun));
      }
    }
  });

  it('gives no runs for no texts', () => {
    expect(runGroups([])).toEqual([]);
  });
});

describe('the model runtime’s runs', () => {
  const root = mkdtempSync(join(tmpdir(), 'engram-runs-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  /**
   * A stand-in for transformers.js: its pipeline gives each text the vector [its length, its
   * index in the run], records each run's texts on globalThis, and has the tokenizer `encode`
   * (source of a function body over `text`, or none).
   */
  function standIn(name: string, encode: string | null): string {
    const file = join(root, `${name}.mjs`);
    const tokenizer = encode === null ? '' : `extract.tokenizer = { model_max_length: 64, encode: (text) => { ${encode} } };`;
    writeFileSync(
      file,
      `export const env = { backends: { onnx: { wasm: {} } } };
export async function pipeline() {
  const extract = async (texts) => {
    (globalThis.__runs ??= []).push(texts);
    return { data: texts.flatMap((text, i) => [text.length, i]), dims: [texts.length, 2] };
  };
  ${tokenizer}
  return extract;
}`,
    );
    return pathToFileURL(file).href;
  }
  const runsOf = () => (globalThis as { __runs?: string[][] }).__runs ?? [];
  const load = (moduleUrl: string) => loadModelRuntime({ kind: 'transformers', model: 'm', allowRemoteModels: false, moduleUrl });

  it('runs a long text apart and gives every vector back in the caller’s order', async () => {
    const runtime = await load(standIn('words', 'return text.split(" ").map(() => 1);'));
    (globalThis as { __runs?: string[][] }).__runs = [];
    const long = Array.from({ length: 60 }, (_, i) => `w${i}`).join(' ');
    const texts = ['a b c', long, 'd e', 'f g h i', 'j'];
    const vectors = await runtime.embed(texts);
    expect(vectors.map((vector) => vector[0])).toEqual(texts.map((text) => text.length));
    expect(runsOf()).toEqual([['j', 'd e', 'a b c', 'f g h i'], [long]]);
  });

  it('estimates from the length when the tokenizer throws or gives no count, and keeps runs to RUN_BATCH', async () => {
    for (const [k, encode] of ['throw new Error("no vocabulary");', 'return 7;', null].entries()) {
      const runtime = await load(standIn(`uncounted-${k}`, encode));
      (globalThis as { __runs?: string[][] }).__runs = [];
      const texts = Array.from({ length: 100 }, (_, i) => `text ${i}`);
      const vectors = await runtime.embed(texts);
      expect(vectors.map((vector) => vector[0])).toEqual(texts.map((text) => text.length));
      expect(runsOf().length).toBeGreaterThan(1);
      expect(Math.max(...runsOf().map((run) => run.length))).toBeLessThanOrEqual(RUN_BATCH);
    }
  });
});
