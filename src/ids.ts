/**
 * Memory ids. A write never replaces a record it did not read (invariant 9): ids carry 128
 * random bits, a planner never hands out an id it already holds, and the commit refuses a
 * CREATE whose id exists in the database (the write is then decided again with new ids).
 */
import { ConflictError, ValidationError } from './errors';
import { Id } from './schema';

/** `mem_` + 32 hex digits: 128 random bits, so a collision by chance needs ~2^64 memories. */
export function defaultIdGenerator(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return 'mem_' + [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** Wraps an app's id generator so what it returns is checked at the edge. */
export function checkedIdGenerator(generate: () => string): () => string {
  return () => {
    const id: unknown = generate();
    const result = Id.safeParse(id);
    if (!result.success) {
      throw new ValidationError('options.idGenerator', `returned ${JSON.stringify(id) ?? String(id)}: ${result.error.issues[0]!.message}; it must return a unique non-empty string id`);
    }
    return result.data;
  };
}

/** Tries before a generator that keeps repeating taken ids is reported. */
const MAX_ID_TRIES = 16;

/** An id from `generate` that `taken` does not hold; a ConflictError when the generator keeps repeating itself. */
export function freshId(generate: () => string, taken: (id: string) => boolean): string {
  let id = '';
  for (let tries = 0; tries < MAX_ID_TRIES; tries++) {
    id = generate();
    if (!taken(id)) return id;
  }
  throw new ConflictError(`the id generator returned ids that are already taken ${MAX_ID_TRIES} times in a row (last '${id}'); it must return unique ids`);
}
