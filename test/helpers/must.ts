/**
 * `value`, or a thrown error naming `what` when it is missing: for a test's index or lookup
 * that the test expects to hit, so a miss fails with a message instead of a TypeError later.
 */
export function must<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`expected ${what}, found none`);
  return value;
}
