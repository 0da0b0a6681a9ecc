/**
 * Runs mem0's documented Node examples (test/fixtures/mem0-docs.ts) against one backend, with
 * only the import line changed: each example's code is compiled as written (TypeScript types
 * stripped) and given `Memory` bound to the backend, then its results are checked against the
 * shapes mem0 documents. Shared by the IndexedDB run (mem0-docs.test.ts) and the Chroma run
 * (test/chroma/mem0-docs.test.ts).
 */
import { createHash, randomBytes } from 'node:crypto';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { createLlmExtractor, type CompletionRequest } from 'engram';
import { Memory, type HistoryRow, type MemoryConfig, type MemoryItem, type SearchResult } from 'engram/mem0';
import { DOCS_EXAMPLES, type DocsExample } from '../fixtures/mem0-docs';

/** What a backend gives each example: the engram options of a fresh store, and its teardown. */
export interface DocsBackend {
  open(): Promise<{ config: MemoryConfig; teardown(): Promise<void> }>;
}

const md5 = (text: string) => createHash('md5').update(text).digest('hex');
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** The extraction model of the examples: what a model answers for the user turns they send (assistant turns never reach it). */
const FACTS: readonly [string, { content: string; topic: string }[]][] = [
  ['I love sci-fi movies', [{ content: 'User loves sci-fi movies.', topic: 'preference' }]],
  ['I like to drink coffee in the morning and go for a walk', [{ content: 'Likes to drink coffee in the morning and go for a walk', topic: 'preference' }]],
  ['I love hiking on weekends', [{ content: 'Loves hiking on weekends', topic: 'preference' }]],
  [
    'my name is John and I am a software engineer',
    [
      { content: 'Name is John', topic: 'identity' },
      { content: 'Is a software engineer', topic: 'work' },
    ],
  ],
];

async function docsModel({ prompt }: CompletionRequest) {
  if (/thriller recommendations|I love Paris/.test(prompt)) throw new Error('an assistant turn reached the extractor');
  const found = FACTS.filter(([said]) => prompt.includes(said)).flatMap(([said, facts]) => facts.map((fact) => ({ ...fact, confidence: 0.8, excerpt: said })));
  return { memories: found };
}

/** Ids engram gives new memories: `next` once when set (a placeholder the docs name), else random. */
function docsIds() {
  const ids = { next: undefined as string | undefined, generate: () => '' };
  ids.generate = () => {
    const id = ids.next ?? `mem_${randomBytes(16).toString('hex')}`;
    ids.next = undefined;
    return id;
  };
  return ids;
}

/** A console that records what the example logs. */
function recordingConsole() {
  const logged: unknown[][] = [];
  const errors: unknown[][] = [];
  return { logged, errors, sink: { log: (...args: unknown[]) => void logged.push(args), error: (...args: unknown[]) => void errors.push(args), warn: (...args: unknown[]) => void errors.push(args) } };
}

/** The example compiled as written (types stripped), returning the variables the runner reads. */
function compile(example: DocsExample): (memoryClass: typeof Memory, console: unknown) => Promise<Record<string, unknown>> {
  const tail = example.entry ? `\nawait ${example.entry}();` : '';
  const source = `${example.code}${tail}\nreturn { ${example.exports.join(', ')} };`;
  const js = ts.transpileModule(`(async () => {${source}\n})`, { compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext } }).outputText;
  return new Function('Memory', 'console', `return ${js.trim().replace(/;$/, '')}();`) as never;
}

interface Ran {
  values: Record<string, unknown>;
  logged: unknown[][];
  errors: unknown[][];
  /** A facade on the example's store, for reading what it left. */
  inspect: Memory;
}

/** Runs one example on a fresh store of `backend`. */
async function runExample(backend: DocsBackend, example: DocsExample, body: (ran: Ran) => Promise<void>): Promise<void> {
  const { config, teardown } = await backend.open();
  const ids = docsIds();
  const bound = { ...config, worker: 'off' as const, extractor: createLlmExtractor({ complete: docsModel }), idGenerator: ids.generate };
  // The import line, changed: `Memory` is engram's, on this backend.
  class DocsMemory extends Memory {
    constructor(options: MemoryConfig = {}) {
      super({ ...bound, ...options });
    }
  }
  const inspect = new DocsMemory();
  try {
    for (const { id, messages, userId, metadata } of example.setup ?? []) {
      ids.next = id;
      await inspect.add(
        messages.map((content) => ({ role: 'user', content })),
        { userId, infer: false, ...(metadata ? { metadata } : {}) },
      );
    }
    ids.next = example.firstId;
    const output = recordingConsole();
    const raw = await compile(example)(DocsMemory, output.sink);
    const values = Object.fromEntries(await Promise.all(Object.entries(raw).map(async ([key, value]) => [key, await value] as const)));
    await body({ values, logged: output.logged, errors: output.errors, inspect });
    for (const value of Object.values(values)) if (value instanceof Memory) await value.close();
  } finally {
    await inspect.close();
    await teardown();
  }
}

/** The fields mem0 documents on a memory, checked for what they must hold. */
function expectItem(item: MemoryItem, userId: string): void {
  expect(item.id).toMatch(/\S/);
  expect(item.hash).toBe(md5(item.memory));
  expect(item.createdAt).toMatch(ISO);
  expect(item.updatedAt).toMatch(ISO);
  expect(item.user_id).toBe(userId);
  expect(item.metadata).toBeTypeOf('object');
}

const example = (name: string) => DOCS_EXAMPLES.find((candidate) => candidate.name === name)!;

/** Registers one test per documented example against `backend`. */
export function describeMem0Docs(label: string, backend: DocsBackend, options: { timeout?: number; skip?: readonly string[] } = {}): void {
  const timeout = options.timeout ?? 30_000;
  describe(`mem0's documented examples (${label})`, () => {
    it(
      'quick-start: search returns the memory with its score and the metadata given to add',
      async () => {
        await runExample(backend, example('quick-start'), async ({ values, logged }) => {
          const results = values['results'] as SearchResult;
          expect(results.results).toHaveLength(1);
          const [item] = results.results;
          expect(item).toMatchObject({ memory: 'User loves sci-fi movies.', metadata: { category: 'movie_recommendations' }, user_id: 'alice' });
          expect(item!.score).toBeGreaterThan(0);
          expectItem(item!, 'alice');
          expect(logged).toEqual([[results]]);
        });
      },
      timeout,
    );

    it(
      'add: returns the ADD with its id, and the repeat with an expiration date adds nothing new',
      async () => {
        await runExample(backend, example('add'), async ({ values }) => {
          // The example starts both adds without awaiting either: they race, and whichever writes
          // first adds the memory; the other is the same fact again, for which mem0 reports no
          // event (engram corroborates it). Usually the first call wins; under load either may.
          const result = values['result'] as SearchResult;
          const expiring = values['expiring'] as SearchResult;
          const [winner, other] = result.results.length > 0 ? [result, expiring] : [expiring, result];
          expect(winner.results).toEqual([{ id: expect.any(String), memory: 'Likes to drink coffee in the morning and go for a walk', metadata: { event: 'ADD' } }]);
          expect(other.results).toEqual([]);
          const stored = await (values['memory'] as Memory).get(winner.results[0]!.id);
          expect(stored).toMatchObject({ id: winner.results[0]!.id });
          if (winner === result) expect(stored).toMatchObject({ metadata: { category: 'preferences' } });
        });
      },
      timeout,
    );

    it(
      'add with infer: false: stores every non-system message as it is, with the metadata',
      async () => {
        await runExample(backend, example('add with infer: false'), async ({ values }) => {
          const result = values['result'] as SearchResult;
          expect(result.results.map((item) => [item.memory, item.metadata])).toEqual([
            ["I'm planning to watch a movie tonight. Any recommendations?", { event: 'ADD' }],
            ['How about thriller movies? They can be quite engaging.', { event: 'ADD' }],
            ["I'm not a big fan of thriller movies but I love sci-fi movies.", { event: 'ADD' }],
            ["Got it! I'll avoid thriller recommendations and suggest sci-fi movies in the future.", { event: 'ADD' }],
          ]);
          const all = await (values['memory'] as Memory).getAll({ filters: { user_id: 'alice', category: 'movie_recommendations' } });
          expect(all.results.map((item) => item.id)).toEqual(result.results.map((item) => item.id));
          all.results.forEach((item) => expectItem(item, 'alice'));
        });
      },
      timeout,
    );

    it(
      'search: the simple search ranks the coffee memory first, the metadata filter keeps only diet',
      async () => {
        await runExample(backend, example('search'), async ({ values }) => {
          const related = values['relatedMemories'] as SearchResult;
          expect(related.results[0]!.memory).toBe('I like to drink coffee in the morning and go for a walk');
          related.results.forEach((item) => expectItem(item, 'alice'));
          // The metadata filter keeps only diet, and returns it as mem0 does: "food preferences"
          // shares no word or WordNet link with "I am vegetarian and avoid dairy", but a filtered
          // search ranks the filter's matches without retrieve's relevance floor.
          const memories = values['memories'] as SearchResult;
          expect(memories.results.map((item) => [item.memory, item.metadata])).toEqual([['I am vegetarian and avoid dairy', { categories: ['diet', 'food'] }]]);
          memories.results.forEach((item) => expectItem(item, 'alice'));
        });
      },
      timeout,
    );

    it(
      'update: mem_123 keeps its id, takes the text, metadata and expiration date, and its history has the UPDATEs',
      async () => {
        await runExample(backend, example('update'), async ({ inspect }) => {
          expect(await inspect.get('mem_123')).toMatchObject({ id: 'mem_123', memory: 'Alex now prefers decaf coffee', metadata: { category: 'preferences', expiration_date: '2030-01-31' } });
          const rows: HistoryRow[] = await inspect.history('mem_123');
          expect(rows.map((row) => [row.memory_id, row.action, row.previous_value, row.new_value])).toEqual([
            ['mem_123', 'UPDATE', 'Alex now prefers decaf coffee', 'Alex now prefers decaf coffee'],
            ['mem_123', 'UPDATE', 'Alex now prefers decaf coffee', 'Alex now prefers decaf coffee'],
            ['mem_123', 'UPDATE', 'Alex prefers coffee', 'Alex now prefers decaf coffee'],
            ['mem_123', 'ADD', null, 'Alex prefers coffee'],
          ]);
          expect(rows.at(-1)!.updated_at).toBeNull();
          expect(rows[0]!.updated_at).toMatch(ISO);
        });
      },
      timeout,
    );

    it(
      "delete: mem_123 and then all of alice's memories are gone, bob's stay",
      async () => {
        await runExample(backend, example('delete'), async ({ inspect }) => {
          expect(await inspect.get('mem_123')).toBeNull();
          expect(await inspect.getAll({ filters: { user_id: 'alice' } })).toEqual({ results: [] });
          expect((await inspect.getAll({ filters: { user_id: 'bob' } })).results.map((item) => item.memory)).toEqual(['Bob plays chess']);
          expect((await inspect.history('mem_123')).map((row) => [row.action, row.previous_value, row.new_value, row.is_deleted])).toEqual([
            ['DELETE', null, null, 1],
            ['ADD', null, null, 0],
          ]);
        });
      },
      timeout,
    );

    it(
      'OSS Node operations: create, read, update and delete <memory_id> as the docs list them',
      async () => {
        await runExample(backend, example('OSS Node operations'), async ({ inspect }) => {
          expect(await inspect.get('<memory_id>')).toBeNull();
          expect(await inspect.getAll({ filters: { user_id: 'alice' } })).toEqual({ results: [] });
          expect((await inspect.history('<memory_id>')).map((row) => row.action)).toEqual(['DELETE', 'UPDATE', 'ADD']);
        });
      },
      timeout,
    );

    if (!options.skip?.includes('basic')) {
      it(
        'basic example: every step logs its result and none logs an error',
        async () => {
          await runExample(backend, example('basic example (add, get, update, getAll, search, history, delete, reset)'), async ({ logged, errors }) => {
            expect(errors).toEqual([]);
            const loggedAs = (label: string) => logged.find((args) => args[0] === label)?.[1];
            const added = loggedAs('Added memory:') as SearchResult;
            expect(added.results.map((item) => item.memory)).toEqual(['Name is John', 'Is a software engineer']);
            expect(loggedAs('Added messages:')).toEqual({ results: [] });
            expect(loggedAs('Single memory:')).toMatchObject({ id: added.results[0]!.id, memory: 'Name is John' });
            expect(loggedAs('Updated memory:')).toEqual({ message: 'Memory updated successfully!' });
            const all = loggedAs('All memories:') as SearchResult;
            expect(all.results.map((item) => [item.id, item.memory])).toEqual([
              [added.results[1]!.id, 'Is a software engineer'],
              [added.results[0]!.id, 'I love India, it is my favorite country.'],
            ]);
            const history = loggedAs('Memory history:') as HistoryRow[];
            expect(history.map((row) => [row.action, row.previous_value, row.new_value])).toEqual([
              ['UPDATE', 'Name is John', 'I love India, it is my favorite country.'],
              ['ADD', null, 'Name is John'],
            ]);
            expect(logged.map((args) => args[0])).toContain('Memory deleted successfully');
          });
        },
        timeout,
      );
    }
  });
}
