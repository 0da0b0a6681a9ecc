import { describe, expect, it } from 'vitest';
import { computeHashEmbedder, createHashEmbedder, HASH_DIM } from '../../src/embed/hash-embedder';
import { createCompute } from '../../src/worker/compute';
import { ValidationError } from '../../src/errors';
import { dot, normalize } from '../../src/embed/vector';

const embedder = createHashEmbedder();
const norm = (vector: Float32Array) => Math.sqrt(dot(vector, vector));

describe('createHashEmbedder', () => {
  it('returns 256-d unit vectors when called with the default dimension', () => {
    const [vector] = embedder.embed(['The user follows a vegetarian diet.']) as Float32Array[];
    expect(HASH_DIM).toBe(256);
    expect(embedder.dim).toBe(256);
    expect(vector).toBeInstanceOf(Float32Array);
    expect(vector!.length).toBe(256);
    expect(norm(vector!)).toBeCloseTo(1, 5);
  });

  it('returns the same vector when the same text is embedded twice, also by a second instance', () => {
    const a = embedder.embedOne('I prefer the aisle seat');
    const b = embedder.embedOne('I prefer the aisle seat');
    const c = createHashEmbedder().embedOne('I prefer the aisle seat');
    expect([...a]).toEqual([...b]);
    expect([...a]).toEqual([...c]);
    expect(embedder.id).toBe('hash-fnv1a-256');
  });

  it('ignores stopwords and case when they are the only difference', () => {
    const plain = embedder.embedOne('vegetarian diet');
    const padded = embedder.embedOne('The user is on a VEGETARIAN diet, and it is what it is');
    // "on" is not a stopword, so compare against a text that differs only by stopwords.
    const stop = embedder.embedOne('the user is a vegetarian of the diet');
    expect(dot(plain, stop)).toBeCloseTo(1, 5);
    expect(dot(plain, padded)).toBeLessThan(1);
  });

  it('places "diet" closer to "dietary" than to "seat" when trigrams are shared', () => {
    const diet = embedder.embedOne('diet');
    const dietary = embedder.embedOne('dietary');
    const seat = embedder.embedOne('seat');
    expect(dot(diet, dietary)).toBeGreaterThan(0.2);
    expect(dot(diet, dietary)).toBeGreaterThan(dot(diet, seat) + 0.2);
  });

  it('returns a zero vector, not NaN, when the text has no tokens or only stopwords', () => {
    for (const text of ['', '   ', '!!! ...', 'the and of user']) {
      const vector = embedder.embedOne(text);
      expect(vector.length).toBe(256);
      expect([...vector].every((value) => value === 0)).toBe(true);
    }
  });

  it('embeds in order when given several texts', () => {
    const texts = ['aisle seat', 'vegetarian', 'fish'];
    const vectors = embedder.embed(texts) as Float32Array[];
    texts.forEach((text, i) => expect([...vectors[i]!]).toEqual([...embedder.embedOne(text)]));
  });

  it('throws a ValidationError when the dimension is not a sane integer', () => {
    for (const dim of [0, 7, 1.5, Number.NaN, 70_000]) expect(() => createHashEmbedder(dim)).toThrow(ValidationError);
  });

  it('throws a ValidationError that says it takes a number when given an options object', () => {
    const call = () => createHashEmbedder({ dim: 64 } as unknown as number);
    expect(call).toThrow(ValidationError);
    expect(call).toThrow('createHashEmbedder(dim): takes the number of dimensions, an integer in [8, 65536] (default 256), got {"dim":64}; pass the number itself: createHashEmbedder(64)');
  });

  it('embeds the composed and the decomposed spelling of a word alike', () => {
    expect([...embedder.embedOne('Jose\u0301 likes cafe\u0301s')]).toEqual([...embedder.embedOne('José likes cafés')]);
  });

  it('stays finite and unit-norm when the text is huge or exotic', () => {
    const texts = ['🙂‍↔️ 👩‍👩‍👧 é e\u0301', '\uD800 lone', 'x'.repeat(100_000), 'ﬁsh Ωmega 数字 ١٢٣'];
    for (const text of texts) {
      const vector = embedder.embedOne(text);
      expect([...vector].every(Number.isFinite)).toBe(true);
      const n = norm(vector);
      expect(n === 0 || Math.abs(n - 1) < 1e-5).toBe(true);
    }
  });
});

describe('normalize', () => {
  it('leaves a zero vector at zero when it has no length', () => {
    expect([...normalize(new Float32Array(4))]).toEqual([0, 0, 0, 0]);
  });

  it('scales to unit length when the vector is non-zero', () => {
    expect([...normalize(Float32Array.from([3, 4]))]).toEqual([0.6000000238418579, 0.800000011920929]);
  });
});

describe('computeHashEmbedder', () => {
  it('embeds one short text on the calling thread, the same vector compute gives, and sends the rest to compute', async () => {
    const calls: string[][] = [];
    const compute = createCompute();
    const onCompute = computeHashEmbedder({ embed: async (texts, dim) => (calls.push(texts), compute.embed(texts, dim)) });
    const query = 'Which quiet beaches in Lisbon does the user like?';
    const [here] = await onCompute.embed([query]);
    expect(calls).toEqual([]);
    expect([...here!]).toEqual([...compute.embed([query], HASH_DIM)[0]!]);
    const long = 'The user likes quiet beaches. '.repeat(100);
    const both = await onCompute.embed([query, long]);
    expect(calls).toEqual([[query, long]]);
    expect([...both[0]!]).toEqual([...here!]);
  });
});
