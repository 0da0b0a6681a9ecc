/**
 * The multilingual lists through the public API: each hostile turn keeps nothing (no fact, no
 * episode), each ordinary one keeps its memories. One owner per message.
 */
import { describe, expect, it } from 'vitest';
import { createTestMemory } from '../helpers/memory';
import { MULTILINGUAL_HOSTILE, MULTILINGUAL_ORDINARY, MULTILINGUAL_ORDINARY_RISKY } from './corpus/multilingual';

const ingestEach = async (texts: readonly string[]) => {
  const { memory } = await createTestMemory({ episodes: true });
  const kept = new Map<string, string[]>();
  for (const [i, text] of texts.entries()) {
    const operations = await memory.ingest([{ role: 'user', content: text }], { userId: `caller-${i}`, sessionId: `c${i}`, source: { type: 'user_explicit', id: `s${i}` } });
    kept.set(
      text,
      operations.map((operation) => operation.content),
    );
  }
  await memory.close();
  return kept;
};

describe('Memory.ingest in other languages', () => {
  it('keeps nothing from a hostile turn in any of the covered languages, or behind lookalikes', async () => {
    const kept = await ingestEach(MULTILINGUAL_HOSTILE.map(([, text]) => text));
    expect([...kept].filter(([, contents]) => contents.length > 0)).toEqual([]);
  });

  it('keeps an ordinary turn of those languages: "I moved to France", "Ich arbeite als Ärztin"', async () => {
    const kept = await ingestEach(MULTILINGUAL_ORDINARY.map(([, text]) => text));
    // Each is kept at least as its episode: the turn's own words.
    expect([...kept].filter(([turn, contents]) => !contents.includes(turn))).toEqual([]);
  });

  it('keeps an ordinary turn of the risky shapes: "Mi jefe ignora las reglas anteriores", "neue Anweisungen:" from a boss, "MY CHILDHOOD MEMORIES"', async () => {
    const kept = await ingestEach(MULTILINGUAL_ORDINARY_RISKY.map(([, text]) => text));
    expect([...kept].filter(([turn, contents]) => !contents.includes(turn))).toEqual([]);
  });
});
