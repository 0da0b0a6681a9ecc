/**
 * `where` filters built the way Chroma accepts them. Its rules, which every builder here keeps:
 * one operator per level (`{ a: 1, b: 2 }` is refused: two keys are wrapped in `$and`); `$and`
 * and `$or` take at least two clauses (one clause stands alone); `$in` is non-empty (an empty
 * list matches nothing, so the whole filter becomes {@link NOTHING} and the caller skips the
 * request); values are strings, numbers or booleans (no arrays, no `{}`).
 *
 * A filter is a `Where`, `undefined` (everything) or `NOTHING` (no row can match).
 */
import type { Where } from 'chromadb';

/** A metadata value Chroma can compare. */
export type Scalar = string | number | boolean;

/** The filter no row matches: callers do not send the request at all. */
export const NOTHING = Symbol('nothing');

/** What the builders return: a filter, everything (`undefined`), or nothing. */
export type Filter = Where | undefined | typeof NOTHING;

/** `key == value`. */
export function eq(key: string, value: Scalar): Where {
  return { [key]: { $eq: value } };
}

/** `key` is one of `values`; an empty list matches nothing, a single value is an `$eq`. */
export function oneOf(key: string, values: readonly Scalar[]): Filter {
  const distinct = [...new Set(values)];
  if (distinct.length === 0) return NOTHING;
  if (distinct.length === 1) return eq(key, distinct[0]!);
  return { [key]: { $in: distinct } } as Where;
}

/** Every clause holds. `undefined` clauses (everything) drop out; any `NOTHING` makes the whole `NOTHING`. */
export function and(...clauses: readonly Filter[]): Filter {
  if (clauses.includes(NOTHING)) return NOTHING;
  const kept = clauses.filter((clause): clause is Where => clause !== undefined);
  if (kept.length === 0) return undefined;
  if (kept.length === 1) return kept[0];
  return { $and: kept };
}

/** Some clause holds. `NOTHING` clauses drop out; any `undefined` (everything) makes the whole `undefined`. */
export function or(...clauses: readonly Filter[]): Filter {
  if (clauses.includes(undefined)) return undefined;
  const kept = clauses.filter((clause): clause is Where => clause !== NOTHING);
  if (kept.length === 0) return NOTHING;
  if (kept.length === 1) return kept[0];
  return { $or: kept };
}
