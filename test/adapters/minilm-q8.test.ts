/**
 * The MiniLM-shaped bench model (scripts/minilm-model.ts) in its q8 variant: the file
 * transformers.js loads for dtype 'q8' (its default on WASM), dynamically quantised as ONNX
 * Runtime's quantize_dynamic writes it. Real transformers.js and ONNX Runtime load both
 * variants; q8's vectors agree with fp32's, are told apart by the embedder id, and the word
 * table and every weight MatMul are 8-bit.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { transformersEmbedder } from '../../src/adapters/transformers';
import { minilmOnnx, writeMinilmShaped } from '../../scripts/minilm-model';

const root = mkdtempSync(join(tmpdir(), 'engram-minilm-'));
const dir = writeMinilmShaped(root);
afterAll(() => rmSync(root, { recursive: true, force: true }));

const texts = ['The user likes spicy hotels in Lisbon during quiet concerts.', 'Which cheap trains in Oslo does the user like?', "I'm vegan, so plan the meals around that."];
const dot = (a: Float32Array, b: Float32Array) => a.reduce((sum, value, i) => sum + value * b[i]!, 0);
const opTypes = (model: Uint8Array) => new TextDecoder('latin1').decode(model);

describe('the MiniLM-shaped model, q8', () => {
  it('is the 8-bit variant: MatMulInteger on int8 weights, a uint8 word table, a quarter of the size', () => {
    const q8 = opTypes(minilmOnnx(28, { q8: true }));
    expect(q8.match(/MatMulInteger/g)?.length).toBeGreaterThanOrEqual(36);
    expect(q8).toContain('DynamicQuantizeLinear');
    expect(q8).toContain('embeddings.word_embeddings.weight_quantized');
    // An initializer's name is followed by its raw_data field (tag 0x4a, 'J'): no fp32 copy of a weight is left.
    expect(opTypes(minilmOnnx(28))).toContain('encoder.layer.0.intermediate.dense.weightJ');
    expect(q8).not.toContain('encoder.layer.0.intermediate.dense.weightJ');
    expect(q8).not.toContain('embeddings.word_embeddings.weightJ');
    const fp32Size = statSync(join(dir, 'onnx', 'model.onnx')).size;
    const q8Size = statSync(join(dir, 'onnx', 'model_quantized.onnx')).size;
    expect(q8Size / fp32Size).toBeGreaterThan(0.2);
    expect(q8Size / fp32Size).toBeLessThan(0.3);
  });

  it('loads through engram/transformers as dtype q8 and embeds what fp32 embeds, to a cosine of 0.999', async () => {
    const q8 = transformersEmbedder({ model: 'minilm-shaped', localModelPath: `${root}/`, dtype: 'q8' });
    const fp32 = transformersEmbedder({ model: 'minilm-shaped', localModelPath: `${root}/`, dtype: 'fp32' });
    expect(await q8.load()).toBe(384);
    expect(await fp32.load()).toBe(384);
    expect(q8.id).toBe('transformers:minilm-shaped:q8:384');
    expect(fp32.id).not.toBe(q8.id);
    const [a, b] = [await q8.embed(texts), await fp32.embed(texts)];
    for (let i = 0; i < texts.length; i++) {
      expect(dot(a[i]!, a[i]!)).toBeCloseTo(1, 4);
      expect(dot(a[i]!, b[i]!)).toBeGreaterThan(0.999);
      // Quantised, not the same file: the vectors are close, not equal.
      expect(dot(a[i]!, b[i]!)).toBeLessThan(1 - 1e-7);
    }
    // Different texts stay apart under q8 as under fp32.
    expect(dot(a[0]!, a[2]!)).toBeLessThan(0.95);
  }, 120_000);
});
