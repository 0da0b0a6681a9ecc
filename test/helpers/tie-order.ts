/**
 * Memories of equal score, constructed on purpose, answered in one order by every backend and
 * after an export → import: best score first, the pinned first among equals, then the oldest,
 * then by id (`byCreation`). The ids run backwards (each new one sorts before the last), so the
 * order they are stored in, which an import changes, is not the order of the tie-break.
 */
import { expect } from 'vitest';
import type { Memory, MemoryOptions } from '../../src/index';
import { createTestClock, DAY, T0 } from './memory';

/** Opens a fresh memory with these options on the backend under test (a new, empty store each call). */
export type OpenTieMemory = (options: Pick<MemoryOptions, 'clock' | 'idGenerator'>) => Promise<Memory>;

const owner = { userId: 'ada' };
const FACTS: [string, string][] = [
  ['The user plays the cello.', 'hobby'],
  ['The user has a cat called Miso.', 'pet'],
  ['The user reads Korean novels.', 'books'],
  ['The user collects old maps.', 'collection'],
  ['The user swims on Sundays.', 'sport'],
];
/** Importance alone: every fact has the default 0.5, so every score is the same. */
const TIED = { ...owner, weights: { relevance: 0, recency: 0, importance: 1 } };

function backwardIds(): () => string {
  let next = 1000;
  return () => `mem_${String(--next).padStart(4, '0')}`;
}

export async function expectStableTieOrder(open: OpenTieMemory): Promise<void> {
  const clock = createTestClock(T0);
  const memory = await open({ clock, idGenerator: backwardIds() });
  // The first fact a day older than the rest: the oldest comes first among equals, the rest by id.
  for (const [i, [content, topic]] of FACTS.entries()) {
    await memory.remember({ content, topic }, { ...owner, source: { type: 'user_explicit', id: `s${i}` } });
    if (i === 0) clock.advance(DAY);
  }
  const ids = async (target: Memory, k: number) => (await target.retrieve('what does the user do', { ...TIED, k })).map((hit) => hit.memory.id);
  const expected = ['mem_0999', 'mem_0995', 'mem_0996', 'mem_0997', 'mem_0998'];
  expect(new Set((await memory.retrieve('what does the user do', { ...TIED, k: 5 })).map((hit) => hit.score)).size).toBe(1);
  expect(await ids(memory, 5)).toEqual(expected);
  // A cut through the tie keeps the first of the order, not the first stored.
  expect(await ids(memory, 2)).toEqual(expected.slice(0, 2));
  expect(await ids(memory, 3)).toEqual(expected.slice(0, 3));
  // A past state is ranked in the same order.
  expect((await memory.retrieve('what does the user do', { ...TIED, k: 2, asOf: clock() })).map((hit) => hit.memory.id)).toEqual(expected.slice(0, 2));
  const pinned = await memory.pin('mem_0997', owner);
  expect(await ids(memory, 2)).toEqual(['mem_0997', 'mem_0999']);

  const moved = await open({ clock, idGenerator: backwardIds() });
  await moved.import(await memory.export(owner));
  expect((await moved.get(pinned.id, owner)).pinned).toBe(true);
  for (const k of [1, 2, 3, 5]) expect(await ids(moved, k)).toEqual(await ids(memory, k));
  await memory.close();
  await moved.close();
}
