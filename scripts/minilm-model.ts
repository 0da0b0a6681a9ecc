/**
 * A model with all-MiniLM-L6-v2's architecture and shapes, written by a script (no weights are
 * downloaded or committed): 6 BERT layers, hidden 384, 12 heads, intermediate 1536, vocabulary
 * 30,522, 512 positions, random weights from a seeded PRNG, so it costs what the real model
 * costs (about 90 MB of fp32 weights, the same MatMuls). Its vectors mean nothing: use it to
 * measure, never to judge recall. Written as `config.json` (model_type bert), a WordPiece
 * `tokenizer.json` with a generated 30,522-entry vocabulary, `tokenizer_config.json` and
 * `onnx/model.onnx` (the protobuf from test/helpers/onnx-writer.ts).
 *
 * `npx tsx scripts/minilm-model.ts <dir>` writes it under `<dir>/minilm-shaped/`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bytes, FLOAT, initializer, int, INT64, message, modelProto, node, str, valueInfo, type Field } from '../test/helpers/onnx-writer';
import { createRandom } from './bench-data';

export const MINILM = { layers: 6, hidden: 384, heads: 12, intermediate: 1536, vocab: 30_522, positions: 512, typeVocab: 2 } as const;
export const MINILM_NAME = 'minilm-shaped';

/** Normal-ish (sum of uniforms) weights with BERT's initialiser scale, 0.02. */
function weights(random: () => number, size: number, scale = 0.02): Float32Array {
  const out = new Float32Array(size);
  for (let i = 0; i < size; i++) out[i] = (random() + random() + random() - 1.5) * 2 * scale;
  return out;
}
const filled = (size: number, value: number) => new Float32Array(size).fill(value);

/** TensorProto.DataType of the quantised weights. */
const UINT8 = 2;
const INT8 = 3;

/** An 8-bit initializer (raw_data), which onnx-writer's `initializer` does not write. */
function initializer8(name: string, dims: readonly number[], type: typeof UINT8 | typeof INT8, data: Uint8Array | Int8Array): Field {
  return message(5, ...dims.map((dim) => int(1, dim)), int(2, type), str(8, name), bytes(9, new Uint8Array(data.buffer, data.byteOffset, data.byteLength)));
}

/** Symmetric per-tensor int8, as ONNX Runtime's `quantize_dynamic` does a MatMul's weight (zero point 0). */
function quantiseSymmetric(values: Float32Array): { data: Int8Array; scale: number } {
  let max = 0;
  for (const value of values) max = Math.max(max, Math.abs(value));
  const scale = max / 127 || 1;
  const data = new Int8Array(values.length);
  for (let i = 0; i < values.length; i++) data[i] = Math.max(-127, Math.min(127, Math.round(values[i]! / scale)));
  return { data, scale };
}

/** Asymmetric per-tensor uint8 (a Gather's table). */
function quantiseAsymmetric(values: Float32Array): { data: Uint8Array; scale: number; zeroPoint: number } {
  let min = 0;
  let max = 0;
  for (const value of values) (min = Math.min(min, value)), (max = Math.max(max, value));
  const scale = (max - min) / 255 || 1;
  const zeroPoint = Math.round(-min / scale);
  const data = new Uint8Array(values.length);
  for (let i = 0; i < values.length; i++) data[i] = Math.max(0, Math.min(255, Math.round(values[i]! / scale) + zeroPoint));
  return { data, scale, zeroPoint };
}
const int64s = (...values: number[]) => BigInt64Array.from(values.map(BigInt));

/**
 * The BERT encoder graph: embeddings, 6 × (self-attention, FFN with Erf GELU), post-LayerNorm.
 * `q8`: the weights dynamically quantised to 8 bits as transformers.js's `model_quantized.onnx`
 * files are (ONNX Runtime's `quantize_dynamic`): every weight MatMul becomes
 * DynamicQuantizeLinear → MatMulInteger (uint8 activations × int8 weights) → Cast → Mul by the
 * two scales, and the word table is uint8 with a DequantizeLinear after its Gather. Same seed,
 * same fp32 weights before quantising. About 23 MB instead of 90.
 */
export function minilmOnnx(seed = 28, { q8 = false }: { q8?: boolean } = {}): Uint8Array {
  const { layers, hidden, heads, intermediate, vocab, positions, typeVocab } = MINILM;
  const head = hidden / heads;
  const random = createRandom(seed);
  const nodes: Field[] = [];
  const inits: Field[] = [];
  const param = (name: string, dims: number[], data: Float32Array | BigInt64Array) => {
    inits.push(initializer(name, dims, data));
    return name;
  };
  let n = 0;
  /** Adds one node; returns its (single) output name. */
  const op = (type: string, inputs: string[], attributes: Parameters<typeof node>[4] = []) => {
    const out = `${type.toLowerCase()}_${n++}`;
    nodes.push(node(type, inputs, [out], out, attributes));
    return out;
  };
  const layerNorm = (x: string, prefix: string, output?: string) => {
    const scale = param(`${prefix}.weight`, [hidden], filled(hidden, 1));
    const bias = param(`${prefix}.bias`, [hidden], filled(hidden, 0));
    if (!output)
      return op(
        'LayerNormalization',
        [x, scale, bias],
        [
          { name: 'axis', int: -1 },
          { name: 'epsilon', float: 1e-12 },
        ],
      );
    nodes.push(
      node('LayerNormalization', [x, scale, bias], [output], output, [
        { name: 'axis', int: -1 },
        { name: 'epsilon', float: 1e-12 },
      ]),
    );
    return output;
  };
  /** x · W (W drawn here), in fp32 or, with `q8`, as ONNX Runtime's dynamic quantisation writes it. */
  const matmul = (x: string, name: string, from: number, to: number) => {
    const w = weights(random, from * to);
    if (!q8) return op('MatMul', [x, param(name, [from, to], w)]);
    const { data, scale } = quantiseSymmetric(w);
    inits.push(initializer8(`${name}_quantized`, [from, to], INT8, data));
    inits.push(initializer8(`${name}_zero_point`, [], INT8, Int8Array.of(0)));
    const wScale = param(`${name}_scale`, [], Float32Array.of(scale));
    const xq = `${name}.x_quantized`;
    const xScale = `${name}.x_scale`;
    const xZero = `${name}.x_zero_point`;
    nodes.push(node('DynamicQuantizeLinear', [x], [xq, xScale, xZero], `${name}.DynamicQuantizeLinear`));
    const product = op('Cast', [op('MatMulInteger', [xq, `${name}_quantized`, xZero, `${name}_zero_point`])], [{ name: 'to', int: FLOAT }]);
    return op('Mul', [product, op('Mul', [xScale, wScale])]);
  };
  const linear = (x: string, prefix: string, from: number, to: number) => op('Add', [matmul(x, `${prefix}.weight`, from, to), param(`${prefix}.bias`, [to], filled(to, 0))]);

  // Constants.
  const one = param('const.one', [], Float32Array.of(1));
  const half = param('const.half', [], Float32Array.of(0.5));
  const sqrt2 = param('const.sqrt2', [], Float32Array.of(Math.SQRT2));
  const maskFill = param('const.mask_fill', [], Float32Array.of(-10_000));
  const sqrtHead = param('const.sqrt_head', [], Float32Array.of(Math.sqrt(head)));
  const toHeads = param('const.to_heads', [4], int64s(0, 0, heads, head));
  const fromHeads = param('const.from_heads', [3], int64s(0, 0, hidden));
  const maskAxes = param('const.mask_axes', [2], int64s(1, 2));
  const zero64 = param('const.zero', [], int64s(0));
  const one64 = param('const.one64', [], int64s(1));

  // Embeddings: word + position + token type, then LayerNorm.
  // The word table at scale 1, not BERT's 0.02: with every table at 0.02, the position and
  // token-type rows every text shares dominate the mean-pooled vector, and any two texts come
  // out at cosine 0.88–0.98, so consolidation would see every memory as a near-duplicate. A
  // trained model's vectors are spread out; with word identity dominating, these are too
  // (texts sharing no word far apart, texts sharing words closer). The cost is the same.
  const wordTable = weights(random, vocab * hidden, 1);
  let word: string;
  if (q8) {
    const { data, scale, zeroPoint } = quantiseAsymmetric(wordTable);
    inits.push(initializer8('embeddings.word_embeddings.weight_quantized', [vocab, hidden], UINT8, data));
    inits.push(initializer8('embeddings.word_embeddings.weight_zero_point', [], UINT8, Uint8Array.of(zeroPoint)));
    const scaleName = param('embeddings.word_embeddings.weight_scale', [], Float32Array.of(scale));
    word = op('DequantizeLinear', [op('Gather', ['embeddings.word_embeddings.weight_quantized', 'input_ids']), scaleName, 'embeddings.word_embeddings.weight_zero_point']);
  } else word = op('Gather', [param('embeddings.word_embeddings.weight', [vocab, hidden], wordTable), 'input_ids']);
  const seqLength = op('Gather', [op('Shape', ['input_ids']), one64], [{ name: 'axis', int: 0 }]);
  const positionIds = op('Range', [zero64, seqLength, one64]);
  const position = op('Gather', [param('embeddings.position_embeddings.weight', [positions, hidden], weights(random, positions * hidden)), positionIds]);
  const tokenType = op('Gather', [param('embeddings.token_type_embeddings.weight', [typeVocab, hidden], weights(random, typeVocab * hidden)), 'token_type_ids']);
  let x = layerNorm(op('Add', [op('Add', [word, position]), tokenType]), 'embeddings.LayerNorm');

  // Additive attention mask [batch, 1, 1, seq]: 0 where attended, -10000 on padding.
  const mask = op('Unsqueeze', [op('Cast', ['attention_mask'], [{ name: 'to', int: FLOAT }]), maskAxes]);
  const additive = op('Mul', [op('Sub', [one, mask]), maskFill]);

  for (let layer = 0; layer < layers; layer++) {
    const p = `encoder.layer.${layer}`;
    const split = (name: string, perm: number[]) => op('Transpose', [op('Reshape', [linear(x, `${p}.attention.self.${name}`, hidden, hidden), toHeads])], [{ name: 'perm', ints: perm }]);
    const q = split('query', [0, 2, 1, 3]);
    const k = split('key', [0, 2, 3, 1]);
    const v = split('value', [0, 2, 1, 3]);
    const probs = op('Softmax', [op('Add', [op('Div', [op('MatMul', [q, k]), sqrtHead]), additive])], [{ name: 'axis', int: -1 }]);
    const context = op('Reshape', [op('Transpose', [op('MatMul', [probs, v])], [{ name: 'perm', ints: [0, 2, 1, 3] }]), fromHeads]);
    const attended = layerNorm(op('Add', [linear(context, `${p}.attention.output.dense`, hidden, hidden), x]), `${p}.attention.output.LayerNorm`);
    const up = linear(attended, `${p}.intermediate.dense`, hidden, intermediate);
    // GELU, Erf form: x · ½ · (1 + erf(x / √2)).
    const gelu = op('Mul', [op('Mul', [up, op('Add', [op('Erf', [op('Div', [up, sqrt2])]), one])]), half]);
    const down = linear(gelu, `${p}.output.dense`, intermediate, hidden);
    x = layerNorm(op('Add', [down, attended]), `${p}.output.LayerNorm`, layer === layers - 1 ? 'last_hidden_state' : undefined);
  }
  const dims = ['batch_size', 'sequence_length'];
  return modelProto(
    {
      name: 'minilm-shaped',
      nodes,
      initializers: inits,
      inputs: ['input_ids', 'attention_mask', 'token_type_ids'].map((name) => valueInfo(11, name, INT64, dims)),
      outputs: [valueInfo(12, 'last_hidden_state', FLOAT, [...dims, hidden])],
    },
    17,
  );
}

const SPECIAL = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'];
// Whole words a real uncased BERT vocabulary has (the bench's texts, its conversations and the facts taken from them are made of such words).
const WORDS = `the a an of to in on at for with and or but is are was were be been has have had do does did not no yes
user users likes loves prefers avoids collects books orders enjoys dislikes recommends visits reads watches plays cooks buys
rents studies photographs follows spicy quiet early late cheap luxury vintage modern crowded remote sunny rainy vegan organic
local foreign classic noisy cosy bright dark tiny huge slow fast rare popular hotels trains flights museums beaches restaurants
markets concerts hikes bikes novels podcasts teas wines cheeses coffees ferries cabins tours festivals galleries bakeries
libraries parks lakes mountains islands villages bridges castles lisbon kyoto oslo lima cairo quito seoul dublin porto tallinn
hanoi denver perth nairobi bergen krakow valencia cusco tbilisi osaka during what which where when who why how does any my your
i you he she it we they me him her us them this that these those there here about from by as into over after before
vegetarian diet tea coffee green name call work lives live home trip travel food drink like want need can will would should
restrictions favourite favorite prefer dietary allergy allergic family friend friends city country week month year day today
hi so plan meals around long seat seating also export keeps failing sync itinerary near goes follows reported upload window
aisle middle trips booking noted understood filter report sorry look some nice meet help ada ben`
  .split(/\s+/)
  .filter(Boolean);

/** 30,522 WordPiece entries: specials, characters, the words above, then generated pieces and ##-continuations. */
export function minilmVocab(): string[] {
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  const chars = [...letters, ...'0123456789', ...'.,;:!?\'"()-/&%$#@*+='];
  const seen = new Set<string>();
  const out: string[] = [];
  const add = (token: string) => {
    if (out.length < MINILM.vocab && !seen.has(token)) {
      seen.add(token);
      out.push(token);
    }
  };
  for (const token of [...SPECIAL, ...chars, ...chars.map((c) => `##${c}`), ...WORDS]) add(token);
  for (const a of letters) for (const b of letters) add(`##${a}${b}`), add(`${a}${b}`);
  for (const a of letters) for (const b of letters) for (const c of letters) add(`##${a}${b}${c}`), add(`${a}${b}${c}`);
  if (out.length !== MINILM.vocab) throw new Error(`minilm vocab has ${out.length} entries, wants ${MINILM.vocab}`);
  return out;
}

function tokenizerJson(vocab: readonly string[]) {
  const id = (token: string) => vocab.indexOf(token);
  return {
    version: '1.0',
    truncation: { direction: 'Right', max_length: 128, strategy: 'LongestFirst', stride: 0 },
    padding: null,
    added_tokens: SPECIAL.map((content, index) => ({ id: index, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true })),
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [{ SpecialToken: { id: '[CLS]', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '[SEP]', type_id: 0 } }],
      pair: [{ SpecialToken: { id: '[CLS]', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '[SEP]', type_id: 0 } }, { Sequence: { id: 'B', type_id: 1 } }, { SpecialToken: { id: '[SEP]', type_id: 1 } }],
      special_tokens: { '[CLS]': { id: '[CLS]', ids: [id('[CLS]')], tokens: ['[CLS]'] }, '[SEP]': { id: '[SEP]', ids: [id('[SEP]')], tokens: ['[SEP]'] } },
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: { type: 'WordPiece', unk_token: '[UNK]', continuing_subword_prefix: '##', max_input_chars_per_word: 100, vocab: Object.fromEntries(vocab.map((token, index) => [token, index])) },
  };
}

/** Writes the model under `root/minilm-shaped/` (fp32 `onnx/model.onnx`, about 90 MB, and q8 `onnx/model_quantized.onnx`, about 23 MB); returns that directory. */
export function writeMinilmShaped(root: string, seed = 28): string {
  const dir = join(root, MINILM_NAME);
  mkdirSync(join(dir, 'onnx'), { recursive: true });
  const vocab = minilmVocab();
  const { layers, hidden, heads, intermediate, positions, typeVocab } = MINILM;
  const config = {
    model_type: 'bert',
    architectures: ['BertModel'],
    hidden_size: hidden,
    num_hidden_layers: layers,
    num_attention_heads: heads,
    intermediate_size: intermediate,
    hidden_act: 'gelu',
    vocab_size: vocab.length,
    max_position_embeddings: positions,
    type_vocab_size: typeVocab,
    layer_norm_eps: 1e-12,
    pad_token_id: 0,
  };
  // all-MiniLM-L6-v2 truncates at 128 word pieces (sentence-transformers' max_seq_length); so does this.
  const tokenizerConfig = { tokenizer_class: 'BertTokenizer', do_lower_case: true, model_max_length: 128, cls_token: '[CLS]', sep_token: '[SEP]', pad_token: '[PAD]', unk_token: '[UNK]', mask_token: '[MASK]' };
  writeFileSync(join(dir, 'config.json'), JSON.stringify(config));
  writeFileSync(join(dir, 'tokenizer.json'), JSON.stringify(tokenizerJson(vocab)));
  writeFileSync(join(dir, 'tokenizer_config.json'), JSON.stringify(tokenizerConfig));
  writeFileSync(join(dir, 'onnx', 'model.onnx'), minilmOnnx(seed));
  // What dtype 'q8' (transformers.js's default on the WASM backend) loads.
  writeFileSync(join(dir, 'onnx', 'model_quantized.onnx'), minilmOnnx(seed, { q8: true }));
  return dir;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = process.argv[2];
  if (!root) throw new Error('usage: npx tsx scripts/minilm-model.ts <dir>');
  console.log(`wrote ${writeMinilmShaped(root)}`);
}
