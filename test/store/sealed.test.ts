/**
 * The at-rest codec on its own: exact round trips, a fresh IV per value, ciphertexts bound to
 * their context, the field map's copy-on-write walk, and the key check.
 */
import { describe, expect, it } from 'vitest';
import { EncryptionKeyError } from '../../src/index';
import { createCodec, isSealed, mapSealed, plainSlots, sealKeyCheck, verifyKeyCheck } from '../../src/store/sealed';

const newKey = () => crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);

describe('createCodec', () => {
  it('round-trips strings exactly when they hold emoji, CJK, lone surrogates and 1 MB of text', async () => {
    const codec = createCodec(await newKey());
    for (const value of ['The user is Zoë 李雷 👩‍👩‍👧', 'lone \uD800 high and \uDC00 low', 'x'.repeat(1 << 20)]) {
      const sealed = await codec.seal(value, 'memories.content:["m1"]');
      expect(isSealed(sealed)).toBe(true);
      expect(await codec.open(sealed, 'memories.content:["m1"]')).toBe(value);
    }
  });

  it('round-trips vectors, 8-bit codes and term ids with their type when sealed', async () => {
    const codec = createCodec(await newKey());
    const vector = new Float32Array([0.25, -1.5, Number.MIN_VALUE, 3e38]);
    const terms = new Uint32Array([0, 1, 2 ** 32 - 1]);
    // An odd length: codes are bytes, not a multiple of any wider unit.
    const codes = new Int8Array([-128, -1, 0, 1, 127]);
    const openedCodes = await codec.open(await codec.seal(codes, 'c'), 'c');
    expect(openedCodes).toBeInstanceOf(Int8Array);
    expect(Array.from(openedCodes as Int8Array)).toEqual(Array.from(codes));
    const openedVector = await codec.open(await codec.seal(vector, 'c'), 'c');
    const openedTerms = await codec.open(await codec.seal(terms, 'c'), 'c');
    expect(openedVector).toBeInstanceOf(Float32Array);
    expect(Array.from(openedVector as Float32Array)).toEqual(Array.from(vector));
    expect(openedTerms).toBeInstanceOf(Uint32Array);
    expect(Array.from(openedTerms as Uint32Array)).toEqual(Array.from(terms));
  });

  it('uses a fresh IV each time when the same value is sealed twice', async () => {
    const codec = createCodec(await newKey());
    const [a, b] = [await codec.seal('same text', 'c'), await codec.seal('same text', 'c')];
    expect(Buffer.from(a.subarray(1, 13)).equals(Buffer.from(b.subarray(1, 13)))).toBe(false);
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(false);
  });

  it('refuses to open a value when its context (row, field or owner) or the key differs', async () => {
    const key = await newKey();
    const codec = createCodec(key);
    const sealed = await codec.seal('secret', 'memories.content:["m1","u_ada","default"]');
    await expect(codec.open(sealed, 'memories.content:["m1","u_bob","default"]')).rejects.toThrow();
    await expect(codec.open(sealed, 'lineage.source.excerpt:["m1","u_ada","default"]')).rejects.toThrow();
    await expect(createCodec(await newKey()).open(sealed, 'memories.content:["m1","u_ada","default"]')).rejects.toThrow();
    expect(await codec.open(sealed, 'memories.content:["m1","u_ada","default"]')).toBe('secret');
  });
});

describe('mapSealed', () => {
  const row = {
    id: 'm1',
    userId: 'u_ada',
    appName: 'default',
    topic: 'diet',
    content: 'The user is vegetarian.',
    sources: [
      { type: 'user_explicit', id: 's1', excerpt: "I'm vegetarian.", at: 1 },
      { type: 'user_implicit', id: 's2', excerpt: '', at: 2 },
    ],
    history: [],
    embedding: new Float32Array([1, 0]),
  };

  it('lists the sealed leaves with contexts naming table, field, row, owner and source when walking a memory row', () => {
    const slots = plainSlots('memories', row);
    expect(slots.map((slot) => slot.context)).toEqual(['memories.content:["m1","u_ada","default"]', 'memories.embedding:["m1","u_ada","default"]', 'memories.sources.*.excerpt:["m1","u_ada","default"]:"s1"']);
  });

  it('copies the containers it changes and leaves the input row untouched when replacing leaves', () => {
    const before = structuredClone(row);
    const mapped = mapSealed('memories', row, (slot) => (typeof slot.value === 'string' && slot.value !== '' ? `<${slot.value}>` : slot.value)) as typeof row;
    expect(row).toEqual(before);
    expect(mapped.content).toBe('<The user is vegetarian.>');
    expect(mapped.sources[0]!.excerpt).toBe("<I'm vegetarian.>");
    expect(mapped.sources[1]).toBe(row.sources[1]);
    expect(mapped.topic).toBe('diet');
  });

  it('returns rows of tables without user text as they are when the table holds ids and numbers only', () => {
    const checkpoint = { userId: 'u', appName: 'a', seq: 3, records: [] };
    expect(mapSealed('checkpoints', checkpoint, () => 'changed')).toBe(checkpoint);
    expect(plainSlots('partitions', { key: 'k', version: 1 })).toEqual([]);
  });
});

describe('verifyKeyCheck', () => {
  it('passes for the key that sealed the check and throws EncryptionKeyError for another key or a damaged check', async () => {
    const codec = createCodec(await newKey());
    const check = await sealKeyCheck(codec);
    await expect(verifyKeyCheck(codec, check, 'db')).resolves.toBeUndefined();
    await expect(verifyKeyCheck(createCodec(await newKey()), check, 'db')).rejects.toThrow(EncryptionKeyError);
    await expect(verifyKeyCheck(createCodec(await newKey()), check, 'db')).rejects.toThrow("the encryptionKey does not open database 'db'");
    const damaged = check.slice();
    damaged[20]! ^= 1;
    await expect(verifyKeyCheck(codec, damaged, 'db')).rejects.toThrow(EncryptionKeyError);
    await expect(verifyKeyCheck(codec, 'not sealed', 'db')).rejects.toThrow(EncryptionKeyError);
  });
});
