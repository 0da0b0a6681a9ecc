/**
 * `npm run eval -- --semantic`: the semantic pairs (./semantic-pairs.ts), a memory and a
 * question sharing no content word. Each half's memories are remembered by one user; each
 * question is asked with `retrieve` (k = 3) and scored by the rank of its own memory among
 * the half's (the others are its distractors). Prints recall@1 and @3 on dev and validation
 * for the default options (the semantic channel on) and for `semantic: false` (the hash
 * embedder and BM25 alone), in the same run.
 */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { createMemory } from '../src/index';
import { DEV, VALIDATION, type SemanticPair } from './semantic-pairs';

const KS = [1, 3] as const;

/** Per question, the 1-based rank of its memory among the hits (Infinity: not in the top 3). */
export async function rankPairs(pairs: readonly SemanticPair[], semantic: boolean): Promise<number[]> {
  const memory = await createMemory({ name: `semantic-${semantic}`, indexedDB: new IDBFactory(), IDBKeyRange, worker: 'off', semantic, episodes: false });
  try {
    const owner = { userId: 'pairs', appName: 'eval' };
    const ids: string[] = [];
    for (const [i, { memory: content }] of pairs.entries()) {
      // All on 'general', one source each: on an exclusive topic (diet, home) a second fact would replace the first.
      const operation = await memory.remember({ content, topic: 'general' }, { ...owner, source: { type: 'user_explicit', id: `pair-${i}` } });
      ids.push(operation.memoryId);
    }
    const ranks: number[] = [];
    for (const [i, { question }] of pairs.entries()) {
      const hits = await memory.retrieve(question, { ...owner, k: Math.max(...KS) });
      const at = hits.findIndex((hit) => hit.memory.id === ids[i]);
      ranks.push(at < 0 ? Number.POSITIVE_INFINITY : at + 1);
    }
    return ranks;
  } finally {
    await memory.close();
  }
}

export function recall(ranks: readonly number[], k: number): number {
  return ranks.filter((rank) => rank <= k).length / ranks.length;
}

export async function runSemantic(): Promise<void> {
  console.log(`engram eval: semantic pairs (no shared content word), dev ${DEV.length}, validation ${VALIDATION.length}; recall@k, retrieve k = 3 among each half's memories`);
  console.log('');
  console.log(`${'variant'.padEnd(40)}  ${['dev @1', 'dev @3', 'val @1', 'val @3'].map((cell) => cell.padStart(6)).join('  ')}`);
  for (const [name, semantic] of [
    ['engram, default options (WordNet on)', true],
    ['engram, semantic: false (hash + BM25)', false],
  ] as const) {
    const dev = await rankPairs(DEV, semantic);
    const validation = await rankPairs(VALIDATION, semantic);
    const cells = [...KS.map((k) => recall(dev, k)), ...KS.map((k) => recall(validation, k))].map((value) => value.toFixed(3).padStart(6));
    console.log(`${name.padEnd(40)}  ${cells.join('  ')}`);
  }
}
