/**
 * A tiny BERT-shaped model written by the test itself (no weights can be downloaded here):
 * `config.json` (model_type bert), a WordPiece `tokenizer.json`, `tokenizer_config.json`, and
 * `onnx/model.onnx`, one Gather from `input_ids` into an embedding table, as
 * `last_hidden_state`. The ONNX protobuf is encoded by ./onnx-writer.ts.
 * The weights are known, so a test can compute the expected mean-pooled vector itself.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FLOAT, initializer, INT64, modelProto, node, valueInfo } from './onnx-writer';

export const VOCAB = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]', 'hello', 'world', '##s', 'the', 'user', 'likes', 'tea', 'coffee', 'green', ',', '.', 'is', 'vegetarian', 'diet', 'drinks'];
export const HIDDEN = 8;

/** Row `id` of the embedding table: deterministic, distinct per token, not unit length. */
export function weightOf(id: number): number[] {
  return Array.from({ length: HIDDEN }, (_, j) => Math.sin(1 + id * 1.7 + j * 0.9) * (1 + (id % 3)));
}

/** What the model should return for these token ids: mean over them, then L2-normalised. */
export function expectedVector(ids: readonly number[]): number[] {
  const sum = new Array<number>(HIDDEN).fill(0);
  for (const id of ids) weightOf(id).forEach((value, j) => (sum[j]! += value));
  const mean = sum.map((value) => value / ids.length);
  const norm = Math.hypot(...mean);
  return mean.map((value) => value / norm);
}

export const idOf = (token: string): number => VOCAB.indexOf(token);

// --- the graph (protobuf from ./onnx-writer) ----------------------------------------------

function modelOnnx(): Uint8Array {
  const table = new Float32Array(VOCAB.flatMap((_, id) => weightOf(id)));
  return modelProto(
    {
      name: 'tiny-bert',
      nodes: [node('Gather', ['embeddings.word_embeddings.weight', 'input_ids'], ['last_hidden_state'], 'embed')],
      initializers: [initializer('embeddings.word_embeddings.weight', [VOCAB.length, HIDDEN], table)],
      inputs: [valueInfo(11, 'input_ids', INT64, ['batch_size', 'sequence_length'])],
      outputs: [valueInfo(12, 'last_hidden_state', FLOAT, ['batch_size', 'sequence_length', HIDDEN])],
    },
    13,
  );
}

// --- tokenizer and config ------------------------------------------------------------------

function tokenizerJson() {
  const special = VOCAB.slice(0, 5).map((content, id) => ({ id, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true }));
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: special,
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: { type: 'BertProcessing', sep: ['[SEP]', idOf('[SEP]')], cls: ['[CLS]', idOf('[CLS]')] },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: { type: 'WordPiece', unk_token: '[UNK]', continuing_subword_prefix: '##', max_input_chars_per_word: 100, vocab: Object.fromEntries(VOCAB.map((token, id) => [token, id])) },
  };
}

/** Writes the model under `root/<name>/`; returns that directory. */
export function writeTinyBert(root: string, name: string): string {
  const dir = join(root, name);
  mkdirSync(join(dir, 'onnx'), { recursive: true });
  const config = { model_type: 'bert', architectures: ['BertModel'], hidden_size: HIDDEN, vocab_size: VOCAB.length, num_hidden_layers: 0, num_attention_heads: 1, max_position_embeddings: 64, type_vocab_size: 2, pad_token_id: 0 };
  const tokenizerConfig = { tokenizer_class: 'BertTokenizer', do_lower_case: true, model_max_length: 64, cls_token: '[CLS]', sep_token: '[SEP]', pad_token: '[PAD]', unk_token: '[UNK]', mask_token: '[MASK]' };
  writeFileSync(join(dir, 'config.json'), JSON.stringify(config));
  writeFileSync(join(dir, 'tokenizer.json'), JSON.stringify(tokenizerJson()));
  writeFileSync(join(dir, 'tokenizer_config.json'), JSON.stringify(tokenizerConfig));
  writeFileSync(join(dir, 'onnx', 'model.onnx'), modelOnnx());
  return dir;
}
