/**
 * How a rejected argument is worded. One error map for every public call: a missing value
 * says it is required and what it looks like, a wrong type says what was expected, an unknown
 * key lists the valid ones (and the likely intended one). Messages a schema sets itself
 * (`must contain at least one message`) take precedence over these.
 */
import type { z } from 'zod/mini';

type Schema = z.core.$ZodType;
interface Def {
  type: string;
  innerType?: Schema;
  in?: Schema;
  shape?: Record<string, Schema>;
  element?: Schema;
  entries?: Record<string, string | number>;
  keyType?: Schema;
}

function defOf(schema: Schema): Def {
  return schema._zod.def as unknown as Def;
}

/** The schema under optional/default/readonly/transform wrappers: what the caller must pass. */
function unwrap(schema: Schema): Schema {
  const def = defOf(schema);
  const inner = def.innerType ?? (def.type === 'pipe' ? def.in : undefined);
  return inner ? unwrap(inner) : schema;
}

const ARTICLE: Record<string, string> = { string: 'a string', number: 'a finite number', int: 'an integer', boolean: 'a boolean', object: 'an object', array: 'an array', function: 'a function' };

/** What a value of `schema` looks like: `{ userId, appName?, source: { type, id } }`, `a string`, … */
export function expectedOf(schema: Schema, depth = 0): string {
  const def = defOf(unwrap(schema));
  if (def.type === 'object' && def.shape) {
    const fields = Object.entries(def.shape).map(([key, field]) => {
      // optin is set for optional and defaulted fields: both may be left out.
      const optional = field._zod.optin ? '?' : '';
      const nested = depth === 0 && defOf(unwrap(field)).type === 'object' ? `: ${expectedOf(field, depth + 1)}` : '';
      return `${key}${optional}${nested}`;
    });
    return `{ ${fields.join(', ')} }`;
  }
  if (def.type === 'array' && def.element) return `an array, each ${expectedOf(def.element, depth)}`;
  if (def.type === 'enum' && def.entries)
    return `one of ${Object.values(def.entries)
      .map((value) => JSON.stringify(value))
      .join(', ')}`;
  return ARTICLE[def.type] ?? def.type;
}

/**
 * The valid key closest to a misspelt one: the same letters in another case, or at most two
 * edits that change less than half of it (so `id` does not suggest `k`).
 */
export function closestKey(key: string, valid: readonly string[]): string | undefined {
  const lower = key.toLowerCase();
  const exact = valid.find((candidate) => candidate.toLowerCase() === lower);
  if (exact) return exact;
  let best: string | undefined;
  let bestDistance = 3;
  for (const candidate of valid) {
    const distance = editDistance(lower, candidate.toLowerCase());
    if (distance < bestDistance && distance < key.length / 2) [best, bestDistance] = [candidate, distance];
  }
  return best;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/** The keys an object schema (its shape) or a record schema over an enum (its values) allows. */
function validKeysOf(inst: Schema | undefined): string[] {
  const def = inst ? defOf(inst) : undefined;
  if (def?.shape) return Object.keys(def.shape);
  const keyEntries = def?.keyType ? defOf(unwrap(def.keyType)).entries : undefined;
  return keyEntries ? Object.values(keyEntries).map(String) : [];
}

function unknownKeysMessage(keys: readonly string[], inst: Schema | undefined): string {
  const valid = validKeysOf(inst);
  const named = keys.map((key) => {
    const suggestion = closestKey(key, valid);
    return suggestion ? `'${key}' (did you mean '${suggestion}'?)` : `'${key}'`;
  });
  return `unknown key${keys.length > 1 ? 's' : ''} ${named.join(', ')}; valid keys: ${valid.join(', ')}`;
}

function typeMessage(issue: z.core.$ZodRawIssue<z.core.$ZodIssueInvalidType>): string {
  const structured = (issue.expected === 'object' || issue.expected === 'array') && issue.inst;
  const expected = structured ? expectedOf(issue.inst as Schema) : (ARTICLE[issue.expected] ?? issue.expected);
  if (issue.input === undefined) return `is required: ${expected}`;
  if (issue.expected === 'object') return `must be an object ${expected}`;
  if (typeof issue.input === 'number' && issue.expected === 'number') return 'must be a finite number';
  return `must be ${expected}`;
}

function sizeMessage(issue: z.core.$ZodRawIssue<z.core.$ZodIssueTooSmall | z.core.$ZodIssueTooBig>): string {
  const small = issue.code === 'too_small';
  const bound = Number(small ? (issue as z.core.$ZodIssueTooSmall).minimum : (issue as z.core.$ZodIssueTooBig).maximum);
  const inclusive = issue.inclusive !== false;
  if (issue.origin === 'string') return small && bound === 1 ? 'must not be empty' : `must be ${small ? 'at least' : 'at most'} ${bound} characters`;
  if (issue.origin === 'array' || issue.origin === 'set') return small && bound === 1 ? 'must not be empty' : `must have ${small ? 'at least' : 'at most'} ${bound} items`;
  return `must be ${small ? (inclusive ? '≥' : '>') : inclusive ? '≤' : '<'} ${bound}`;
}

/** The per-call error map: a message for every issue whose schema did not word one itself. */
export function issueMessage(issue: z.core.$ZodRawIssue): string | undefined {
  switch (issue.code) {
    case 'invalid_type':
      return typeMessage(issue as z.core.$ZodRawIssue<z.core.$ZodIssueInvalidType>);
    case 'unrecognized_keys':
      return unknownKeysMessage(issue.keys, issue.inst as Schema | undefined);
    case 'invalid_value':
      return `must be one of ${issue.values.map((value) => JSON.stringify(value)).join(', ')}`;
    case 'too_small':
    case 'too_big':
      return sizeMessage(issue as z.core.$ZodRawIssue<z.core.$ZodIssueTooSmall | z.core.$ZodIssueTooBig>);
    default:
      return undefined;
  }
}

/**
 * The value an issue is about, from zod's own report (parse with `reportInput: true`): its
 * `input`, except for a discriminated union's unknown discriminator, whose `input` is the whole
 * object while its path names the discriminator.
 */
export function issueValue(issue: z.core.$ZodIssue): unknown {
  const { input } = issue;
  if (issue.code === 'invalid_union' && 'discriminator' in issue && typeof issue.discriminator === 'string' && typeof input === 'object' && input !== null) {
    return Object.hasOwn(input, issue.discriminator) ? (input as Record<string, unknown>)[issue.discriminator] : undefined;
  }
  return input;
}

/** A short, safe rendering of what the caller passed, for the `(got …)` part of a message. */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? value.slice(0, 57) + '...' : value);
  if (typeof value === 'number' || typeof value === 'boolean' || value === null || value === undefined) return Object.is(value, -0) ? '-0' : String(value);
  if (typeof value === 'function') return 'a function';
  if (typeof value !== 'object') return `a ${typeof value}`;
  if (Array.isArray(value)) return value.length === 0 ? 'an empty array' : `an array of ${value.length} item${value.length > 1 ? 's' : ''}`;
  if (typeof (value as { then?: unknown }).then === 'function') return 'a Promise';
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== null && prototype !== Object.prototype) {
    const name = (prototype as { constructor?: { name?: unknown } }).constructor?.name;
    return typeof name === 'string' && name ? `a ${name}` : 'an object';
  }
  const keys = Object.keys(value);
  return keys.length === 0 ? 'an empty object' : `an object with keys ${keys.slice(0, 6).join(', ')}${keys.length > 6 ? ', …' : ''}`;
}
