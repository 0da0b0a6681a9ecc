/**
 * The MiniLM-shaped bench model (scripts/minilm-model.ts) is a model transformers.js runs as
 * a BERT: real transformers.js and ONNX Runtime load what the script writes. Its weights are
 * random, so nothing is checked against meaning; what is checked is what a broken graph or
 * vocabulary would get wrong: the shapes, the vocabulary's size, and the attention mask (a text
 * padded in a batch must come out as it does alone).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { transformersEmbedder } from '../../src/adapters/transformers';
import { MINILM, MINILM_NAME, minilmVocab, writeMinilmShaped } from '../../scripts/minilm-model';

const root = mkdtempSync(join(tmpdir(), 'engram-minilm-'));
const dir = writeMinilmShaped(root);
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the MiniLM-shaped model', () => {
  it('has all-MiniLM-L6-v2 shapes: a 30,522-entry vocabulary of distinct pieces and about 90 MB of fp32 weights', () => {
    const vocab = minilmVocab();
    expect(new Set(vocab).size).toBe(MINILM.vocab);
    const config = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
    expect(config).toMatchObject({ model_type: 'bert', hidden_size: 384, num_hidden_layers: 6, num_attention_heads: 12, intermediate_size: 1536, vocab_size: 30_522 });
    const bytes = readFileSync(join(dir, 'onnx', 'model.onnx')).length;
    const parameters = 30_522 * 384 + 512 * 384 + 2 * 384 + 6 * (4 * 384 * 384 + 2 * 384 * 1536);
    expect(bytes).toBeGreaterThan(parameters * 4);
    expect(bytes).toBeLessThan(parameters * 4 * 1.01);
  });

  it('loads in transformers.js and gives 384-d unit vectors, the same for a text alone as padded in a batch', async () => {
    const embedder = transformersEmbedder({ model: MINILM_NAME, localModelPath: `${root}/`, dtype: 'fp32' });
    expect(await embedder.load()).toBe(384);
    const short = 'The user likes tea.';
    const long = 'The user prefers quiet hotels in Lisbon during rainy festivals, and avoids crowded beaches in Osaka.';
    const [alone] = await embedder.embed([short]);
    const [padded, other] = await embedder.embed([short, long]);
    expect(Math.hypot(...alone!)).toBeCloseTo(1, 5);
    alone!.forEach((value, i) => expect(padded![i]!).toBeCloseTo(value, 4));
    const cosine = alone!.reduce((sum, value, i) => sum + value * other![i]!, 0);
    expect(cosine).toBeLessThan(0.999);
  });
});
