/**
 * The `where` builder against the real server: every filter it builds is one Chroma accepts
 * (one operator per level, `$and`/`$or` with ≥ 2 clauses, non-empty `$in`) and selects what it
 * says; the raw forms it avoids are refused by the server, so the rules are real.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Collection, Where } from 'chromadb';
import { and, eq, NOTHING, oneOf, or } from '../../src/adapters/chroma/where';
import { chromaClient, freshPrefix } from './helpers';

describe('where builder (engram/chroma)', () => {
  const client = chromaClient();
  const name = `${freshPrefix('where')}rows`;
  let collection: Collection;

  beforeAll(async () => {
    collection = await client.getOrCreateCollection({ name, embeddingFunction: null, configuration: { hnsw: { space: 'cosine' } } });
    await collection.upsert({
      ids: ['a', 'b', 'c', 'd'],
      embeddings: [
        [1, 0],
        [0, 1],
        [1, 1],
        [1, -1],
      ],
      metadatas: [
        { pk: 'p1', scope: 'user', active: true },
        { pk: 'p1', scope: 'session', active: false },
        { pk: 'p2', scope: 'user', active: true },
        { pk: 'p2', scope: 'app', active: true },
      ],
    });
  });
  afterAll(() => client.deleteCollection({ name }));

  const ids = async (where: Where) => (await collection.get({ where })).ids.sort();

  it('wraps two conditions in $and and leaves a single one bare when building a conjunction', async () => {
    expect(and(eq('pk', 'p1'))).toEqual({ pk: { $eq: 'p1' } });
    expect(await ids(and(eq('pk', 'p1'), eq('active', true)) as Where)).toEqual(['a']);
    expect(await ids(and(eq('pk', 'p2'), or(eq('scope', 'user'), eq('scope', 'app')), undefined) as Where)).toEqual(['c', 'd']);
  });

  it('is refused by the server when two keys share a level or $and has one clause', async () => {
    await expect(collection.get({ where: { pk: 'p1', active: true } as Where })).rejects.toThrow();
    await expect(collection.get({ where: { $and: [{ pk: { $eq: 'p1' } }] } })).rejects.toThrow();
  });

  it('turns an empty list into NOTHING and a one-value list into $eq when building $in', async () => {
    expect(oneOf('scope', [])).toBe(NOTHING);
    expect(and(eq('pk', 'p1'), oneOf('scope', []))).toBe(NOTHING);
    expect(or(oneOf('scope', []), eq('pk', 'p2'))).toEqual({ pk: { $eq: 'p2' } });
    expect(oneOf('scope', ['user', 'user'])).toEqual({ scope: { $eq: 'user' } });
    expect(await ids(oneOf('scope', ['session', 'app']) as Where)).toEqual(['b', 'd']);
  });

  it('matches everything when every clause is everything, and nothing when every alternative is nothing', () => {
    expect(and(undefined, undefined)).toBeUndefined();
    expect(or(NOTHING, NOTHING)).toBe(NOTHING);
    expect(or(eq('pk', 'p1'), undefined)).toBeUndefined();
  });
});
