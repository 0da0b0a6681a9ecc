/**
 * The pure lineage model (storage/lineage.ts): chains of sources by depth with exclusions, and
 * where a commit's records go on them. No database: everything read is handed in.
 */
import { describe, expect, it } from 'vitest';
import type { MemoryRecord } from '../../src/schema';
import { createChain, lineageOfCommit, placeRecords, sourceKey, withLineage, type Chain, type CommitLineage, type Stored } from '../../src/storage/lineage';
import { record, source } from '../consolidate/fixtures';

const ids = (sources: readonly { id: string }[]) => sources.map((s) => s.id);
const none: CommitLineage = { working: new Set(), inherits: new Map() };
const nothingStored: Stored = { meta: undefined, summaryKeys: new Set() };

function chainOf(entries: readonly [number, string][]): Chain {
  const chain = createChain();
  for (const [depth, id] of entries) chain.add(depth, source(id));
  return chain;
}

describe('createChain', () => {
  it('gives the memory at each depth the entries of its depth and above, in order', () => {
    const chain = chainOf([
      [0, 'a'],
      [0, 'b'],
      [1, 'c'],
      [2, 'd'],
    ]);
    expect(ids(chain.sourcesAt({ depth: 0 }))).toEqual(['a', 'b']);
    expect(ids(chain.sourcesAt({ depth: 1 }))).toEqual(['a', 'b', 'c']);
    expect(ids(chain.sourcesAt({ depth: 5 }))).toEqual(['a', 'b', 'c', 'd']);
    expect(chain.holds({ depth: 1 }, sourceKey(source('d')))).toBe(false);
    expect(chain.holds({ depth: 2 }, sourceKey(source('d')))).toBe(true);
  });

  it('leaves out what a memory excludes, and shows a source it gained again at its new place', () => {
    const chain = chainOf([
      [0, 'a'],
      [0, 'b'],
      [0, 'c'],
      [2, 'b'],
    ]);
    const excluded = [[sourceKey(source('b')), 0]] as const;
    expect(ids(chain.sourcesAt({ depth: 1, excluded }))).toEqual(['a', 'c']);
    expect(ids(chain.sourcesAt({ depth: 2, excluded }))).toEqual(['a', 'c', 'b']);
    expect(ids(chain.sourcesAt({ depth: 2 }))).toEqual(['a', 'b', 'c']);
    expect(chain.holds({ depth: 1, excluded }, sourceKey(source('b')))).toBe(false);
    expect(chain.sourcesWithId({ depth: 1, excluded }, 'b')).toEqual([]);
    expect(ids(chain.sourcesWithId({ depth: 2, excluded }, 'b'))).toEqual(['b']);
  });

  it('gains only what the memory does not hold yet', () => {
    const chain = chainOf([[0, 'a']]);
    chain.gain({ depth: 1 }, [source('a'), source('b'), source('b', 'user_explicit')]);
    expect(chain.sourcesAt({ depth: 1 }).map((s) => [s.id, s.type])).toEqual([
      ['a', 'user_implicit'],
      ['b', 'user_implicit'],
      ['b', 'user_explicit'],
    ]);
    expect(ids(chain.sourcesAt({ depth: 0 }))).toEqual(['a']);
  });
});

describe('placeRecords', () => {
  it('appends only the new sources and entries of a working-form record, after what its row holds', () => {
    const stored: Stored = { meta: { chain: 'c0', depth: 1, sourceCount: 2, historyCount: 3, sourceTotal: 4 }, summaryKeys: new Set([sourceKey(source('a'))]) };
    const working = record('m', 'fact', 'general', { sources: [source('a'), source('s'), source('t')], history: [{ at: 2, event: 'corroborated', reason: 'by t', sourceId: 't' }] });
    const [placed] = placeRecords({ records: [working], stored: [stored], lineage: { working: new Set(['m']), inherits: new Map() }, chains: new Map([['c0', chainOf([[0, 's']])]]) });
    expect(placed).toMatchObject({ chain: 'c0', depth: 1, firstSource: 2, firstEvent: 3, sourceTotal: 5, rewriteHistory: false });
    expect(ids(placed!.fresh)).toEqual(['t']);
    expect(ids(placed!.summary)).toEqual(['a']);
  });

  it("puts an UPDATE's memory one level below its working-form parent of the same commit, storing only what is new", () => {
    const stored: Stored = { meta: { chain: 'c0', depth: 0, sourceCount: 1, historyCount: 1, sourceTotal: 1 }, summaryKeys: new Set([sourceKey(source('a'))]) };
    const parent = record('p', 'old', 'diet', { sources: [source('a')], invalidatedAt: 2, supersededBy: 'n', history: [] });
    const child = record('n', 'new', 'diet', { sources: [source('a'), source('b')] });
    const [, placed] = placeRecords({ records: [parent, child], stored: [stored, nothingStored], lineage: { working: new Set(['p']), inherits: new Map([['n', 'p']]) }, chains: new Map() });
    expect(placed).toMatchObject({ chain: 'c0', depth: 1, firstSource: 0, sourceTotal: 2, rewriteHistory: false });
    expect(ids(placed!.fresh)).toEqual(['b']);
  });

  it('joins a complete rebuild to its parent’s chain with the sources it lacks excluded, and starts a chain of its own when the order differs', () => {
    const stored: Stored = { meta: { chain: 'c0', depth: 0, sourceCount: 3, historyCount: 1, sourceTotal: 3 }, summaryKeys: new Set() };
    const parent = record('p', 'old', 'diet', { sources: [source('a'), source('b'), source('c')] });
    const place = (child: MemoryRecord) => placeRecords({ records: [parent, child], stored: [stored, nothingStored], lineage: { working: new Set(), inherits: new Map([[child.id, 'p']]) }, chains: new Map() })[1]!;
    const joined = place(record('r', 'new', 'diet', { sources: [source('a'), source('c'), source('d')] }));
    expect(joined).toMatchObject({ chain: 'c0', depth: 1, excluded: [[sourceKey(source('b')), 0]], rewriteHistory: true });
    expect(ids(joined.fresh)).toEqual(['d']);
    const alone = place(record('r', 'new', 'diet', { sources: [source('c'), source('a')] }));
    expect(alone).toMatchObject({ chain: 'r', depth: 0 });
    expect(ids(alone.fresh)).toEqual(['c', 'a']);
  });

  it('takes a record no commit lineage names as complete, comparing it with its stored chain', () => {
    const stored: Stored = { meta: { chain: 'c0', depth: 0, sourceCount: 1, historyCount: 1 }, summaryKeys: new Set() };
    const complete = record('m', 'fact', 'general', { sources: [source('a'), source('b')] });
    const [placed] = placeRecords({ records: [complete], stored: [stored], lineage: none, chains: new Map([['c0', chainOf([[0, 'a']])]]) });
    expect(placed).toMatchObject({ chain: 'c0', firstSource: 1, firstEvent: 0, sourceTotal: 2, rewriteHistory: true });
    expect(ids(placed!.fresh)).toEqual(['b']);
  });
});

describe('withLineage', () => {
  it('carries the lineage to the store through a copy of the commit, and a plain commit carries none', () => {
    const lineage: CommitLineage = { working: new Set(['a']), inherits: new Map([['b', 'a']]) };
    const commit = { ...withLineage({ records: [], expected: new Map<string, number>() }, lineage) };
    expect(lineageOfCommit(commit)).toEqual(lineage);
    expect(lineageOfCommit({ records: [], expected: new Map() })).toEqual(none);
  });
});
