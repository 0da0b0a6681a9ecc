/**
 * Encryption at rest: the codec, and the one map of which fields of which tables are sealed.
 *
 * A sealed value is `[format byte, 96-bit random IV, AES-GCM ciphertext + tag]` in a
 * `Uint8Array`, in place of the string or typed array it replaces. Its additional data is a
 * context naming the table, the field and the row's identity (and its owner), so a ciphertext
 * moved to another row, field or owner fails authentication instead of decrypting there.
 *
 * Rules this code keeps:
 * - Everything a user wrote (contents, excerpts, reasons, messages, facts) and everything
 *   derived from it (vectors, lexical term ids) is sealed; what an index or a commit's checks
 *   read stays in clear: ids, owner, app, scope, session, topic, source ids and types, the
 *   active flag, seq, versions, times and the scoring numbers.
 * - The empty string stays as it is: it holds no text, and erasure blanks excerpts inside its
 *   transaction, where nothing can be encrypted.
 * - Strings are sealed as UTF-16 code units, so every JS string (lone surrogates included)
 *   round-trips exactly.
 */
import { EncryptionKeyError } from '../errors';

/** A value that may be sealed. */
export type Plain = string | Float32Array | Uint32Array | Int8Array;

/** Sealed values start with this byte; another scheme would get another. */
const FORMAT = 1;
const IV_BYTES = 12;
const KIND = { string: 0, f32: 1, u32: 2, i8: 3 } as const;

/** Where a table's user text sits: paths into a row (`*`: every element of an array). */
interface TableSeal {
  /** The row's identity and owner, bound into every ciphertext of the row. */
  bind: (row: Record<string, unknown>) => unknown[];
  fields: readonly (readonly string[])[];
}

const owned = (id: unknown) => (row: Record<string, unknown>) => [id, row.userId, row.appName];

/**
 * The tables and fields that are sealed. An array element's own `id` (a source's id, a log
 * row's memory id) is bound too, so sealed values cannot be swapped between elements either.
 * `checkpoints`, `partitions` and `revocations` hold ids and numbers only and stay in clear.
 */
export const SEALED_TABLES: Readonly<Record<string, TableSeal>> = {
  memories: { bind: (row) => owned(row.id)(row), fields: [['content'], ['embedding'], ['sources', '*', 'excerpt'], ['history', '*', 'reason'], ['metadata']] },
  lineage: { bind: (row) => owned(row.memoryId)(row), fields: [['source', 'excerpt']] },
  events: { bind: (row) => owned(row.memoryId)(row), fields: [['entry', 'reason']] },
  inputs: {
    bind: (row) => owned((row.source as { id?: unknown } | undefined)?.id ?? row.kind)(row),
    fields: [['messages', '*', 'content'], ['fact', 'content'], ['candidates', '*', 'content'], ['candidates', '*', 'excerpt'], ['metadata']],
  },
  vectorPacks: { bind: (row) => [row.partition, row.part, row.version], fields: [['vectors'], ['codes'], ['codeScales'], ['codeErrors'], ['codeNorms'], ['terms'], ['termOffsets'], ['postingTerms'], ['postingStarts'], ['postingEntries']] },
  vectorLog: {
    bind: (row) => [row.partition],
    fields: [
      ['upserts', '*', 'embedding'],
      ['upserts', '*', 'terms'],
    ],
  },
};

/** One sealable leaf of a row: its value and the context its ciphertext is bound to. */
export interface Slot {
  context: string;
  value: unknown;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !ArrayBuffer.isView(value);
}

/**
 * Copies `row`, replacing every leaf on the table's sealed paths by `map(slot)` (a leaf for which
 * `map` returns it unchanged stays shared). Containers on the way are copied, never mutated:
 * rows come from callers, or from Dexie's caches.
 */
export function mapSealed(table: string, row: unknown, map: (slot: Slot) => unknown): unknown {
  const spec = SEALED_TABLES[table];
  if (!spec || !isRecord(row)) return row;
  const base = JSON.stringify(spec.bind(row));
  const walk = (node: unknown, path: readonly string[], at: number, trail: string): unknown => {
    if (at === path.length) return map({ context: `${table}.${path.join('.')}:${base}${trail}`, value: node });
    const step = path[at]!;
    if (step === '*') {
      if (!Array.isArray(node)) return node;
      const next = node.map((item: unknown) => walk(item, path, at + 1, isRecord(item) && typeof item.id === 'string' ? `${trail}:${JSON.stringify(item.id)}` : trail));
      return next.every((item, i) => item === node[i]) ? node : next;
    }
    if (!isRecord(node) || !(step in node)) return node;
    const inner = walk(node[step], path, at + 1, trail);
    return inner === node[step] ? node : { ...node, [step]: inner };
  };
  return spec.fields.reduce<unknown>((current, path) => walk(current, path, 0, ''), row);
}

/** The leaves of `row` that are still to be sealed (plain, non-empty values on sealed paths). */
export function plainSlots(table: string, row: unknown): Slot[] {
  const slots: Slot[] = [];
  mapSealed(table, row, (slot) => {
    if (isPlain(slot.value)) slots.push(slot);
    return slot.value;
  });
  return slots;
}

/** A value that must be sealed before it is stored: a non-empty string or a vector/code/term array. */
export function isPlain(value: unknown): value is Plain {
  return (typeof value === 'string' && value !== '') || value instanceof Float32Array || value instanceof Uint32Array || value instanceof Int8Array;
}

/** A stored sealed value (what {@link Codec.seal} produced). */
export function isSealed(value: unknown): value is Uint8Array {
  return value instanceof Uint8Array && value.length > 1 + IV_BYTES && value[0] === FORMAT;
}

/**
 * Plaintext layout: a 4-byte header (the kind, then padding) and the value's bytes, so a
 * decrypted vector is viewed in place, 4-byte aligned, instead of copied out.
 */
const HEADER_BYTES = 4;

function encode(value: Plain): Uint8Array<ArrayBuffer> {
  if (typeof value === 'string') {
    const out = new Uint8Array(HEADER_BYTES + value.length * 2);
    const units = new DataView(out.buffer);
    out[0] = KIND.string;
    for (let i = 0; i < value.length; i++) units.setUint16(HEADER_BYTES + i * 2, value.charCodeAt(i), true);
    return out;
  }
  const out = new Uint8Array(HEADER_BYTES + value.byteLength);
  out[0] = value instanceof Float32Array ? KIND.f32 : value instanceof Int8Array ? KIND.i8 : KIND.u32;
  out.set(new Uint8Array(value.buffer, value.byteOffset, value.byteLength), HEADER_BYTES);
  return out;
}

function decode(plain: ArrayBuffer): Plain {
  const kind = new Uint8Array(plain, 0, 1)[0];
  if (kind === KIND.f32) return new Float32Array(plain, HEADER_BYTES);
  if (kind === KIND.u32) return new Uint32Array(plain, HEADER_BYTES);
  if (kind === KIND.i8) return new Int8Array(plain, HEADER_BYTES);
  const units = new DataView(plain, HEADER_BYTES);
  const codes = new Array<number>(units.byteLength / 2);
  for (let i = 0; i < codes.length; i++) codes[i] = units.getUint16(i * 2, true);
  let text = '';
  // In slices: fromCharCode takes its arguments on the stack.
  for (let i = 0; i < codes.length; i += 8192) text += String.fromCharCode(...codes.slice(i, i + 8192));
  return text;
}

export interface Codec {
  /** Encrypts `value`, bound to `context`. */
  seal(value: Plain, context: string): Promise<Uint8Array>;
  /** Decrypts a sealed value; rejects (OperationError) when the key or the context is not the one it was sealed with. */
  open(sealed: Uint8Array, context: string): Promise<Plain>;
}

/** A codec over an AES-GCM key the app holds (never exported, never stored). */
export function createCodec(key: CryptoKey): Codec {
  const subtle = globalThis.crypto.subtle;
  const text = new TextEncoder();
  return {
    async seal(value, context) {
      const iv = globalThis.crypto.getRandomValues(new Uint8Array(IV_BYTES));
      const body = await subtle.encrypt({ name: 'AES-GCM', iv, additionalData: text.encode(context) }, key, encode(value));
      const out = new Uint8Array(1 + IV_BYTES + body.byteLength);
      out[0] = FORMAT;
      out.set(iv, 1);
      out.set(new Uint8Array(body), 1 + IV_BYTES);
      return out;
    },
    async open(sealed, context) {
      // Views, not copies: a snapshot chunk's vectors are megabytes.
      const iv = sealed.subarray(1, 1 + IV_BYTES) as Uint8Array<ArrayBuffer>;
      const body = await subtle.decrypt({ name: 'AES-GCM', iv, additionalData: text.encode(context) }, key, sealed.subarray(1 + IV_BYTES) as Uint8Array<ArrayBuffer>);
      return decode(body);
    },
  };
}

/** What the key check row seals: decrypting it proves the key is the database's. */
const KEY_CHECK = 'engram encryption key check';
const KEY_CHECK_CONTEXT = 'partitions.check';

/** The sealed known plaintext stored in the database's key check row. */
export function sealKeyCheck(codec: Codec): Promise<Uint8Array> {
  return codec.seal(KEY_CHECK, KEY_CHECK_CONTEXT);
}

/** Throws EncryptionKeyError unless `check` was sealed with this codec's key. */
export async function verifyKeyCheck(codec: Codec, check: unknown, database: string): Promise<void> {
  const wrong = (cause?: unknown) => new EncryptionKeyError(`the encryptionKey does not open database '${database}': it was encrypted with another key. Nothing was read or written; open it with the key it was created with.`, { cause });
  if (!isSealed(check)) throw wrong();
  const opened = await codec.open(check, KEY_CHECK_CONTEXT).catch((error: unknown) => {
    throw wrong(error);
  });
  if (opened !== KEY_CHECK) throw wrong();
}
