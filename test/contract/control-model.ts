/**
 * The user's control verbs as a model, for any backend (describeStorageContract runs it): two
 * instances on one store, fed seeded random sequences of remember, forget, correct, pin and
 * unpin (each on a random instance, some aimed at the other user's memory, and some steps two
 * commands at once, one on each instance), checked after every step against a reference model
 * of each user's active memories (id, content, pinned): `list` equals it on both instances,
 * `retrieve` and `export` hold no forgotten text, and after every forget no forgotten text is
 * anywhere in the store (the erasure canary). Forgetting a corrected memory forgets its whole
 * line, the versions it superseded included (docs/control.md). Two commands at once may land in
 * either order: the step is accepted when the outcomes and the store equal one serial order.
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import { ConflictError, NotFoundError, type Memory, type Operation } from '../../src/index';
import { createSequentialIds } from '../helpers/memory';
import { storedText } from './harness';
import type { ReviewStores } from './review';

const USERS = ['u1', 'u2'] as const;

type Kind = 'add' | 'forget' | 'correct' | 'pin' | 'unpin';
type Command = { kind: Kind; instance: number; user: number; pick: number; foreign: boolean };

const commandArbitrary: fc.Arbitrary<Command> = fc.record({
  kind: fc.constantFrom<Kind>('add', 'add', 'add', 'forget', 'forget', 'correct', 'correct', 'pin', 'unpin'),
  instance: fc.nat({ max: 1 }),
  user: fc.nat({ max: 1 }),
  pick: fc.nat({ max: 7 }),
  // One in ten aims at the other user's memory: refused as if it did not exist.
  foreign: fc.nat({ max: 9 }).map((roll) => roll === 0),
});
/**
 * Steps: one command, or (one in four) two at once, the first on instance 0 and the second on
 * instance 1; half of those aim both at the same memory of the same user (a forget and a
 * correction of one memory, say), where the order they land in decides the outcome.
 */
const planArbitrary = fc.array(
  fc.oneof(
    { weight: 3, arbitrary: commandArbitrary.map((command) => [command]) },
    {
      weight: 1,
      arbitrary: fc.tuple(commandArbitrary, commandArbitrary, fc.boolean()).map(([a, b, same]) => [
        { ...a, instance: 0 },
        { ...b, instance: 1, ...(same ? { user: a.user, pick: a.pick, foreign: a.foreign } : {}) },
      ]),
    },
  ),
  { minLength: 26, maxLength: 26 },
);

interface Held {
  user: string;
  content: string;
  pinned: boolean;
  /** The contents of the versions it superseded (by `correct`), oldest first: forget erases them too. */
  past: string[];
}

/** The reference: each active memory by id, the version each corrected id became, and every text forget erased. */
interface State {
  active: Map<string, Held>;
  next: Map<string, string>;
  forgotten: Set<string>;
  /** Forgets that erased a corrected memory's line (earlier versions included). */
  lines: number;
}

const copy = (state: State): State => ({ active: new Map([...state.active].map(([id, held]) => [id, { ...held, past: [...held.past] }])), next: new Map(state.next), forgotten: new Set(state.forgotten), lines: state.lines });

/** A command with what it acts on, fixed when its step begins (both commands of a step see the same state). */
interface Resolved {
  command: Command;
  owner: { userId: string; appName: string };
  /** The memory it names (absent for add, or when the user had none). */
  id?: string;
  /** add's content, correct's new content. */
  text: string;
}

function resolve(state: State, command: Command, texts: { n: number }): Resolved {
  const owner = { userId: USERS[command.user]!, appName: 'default' };
  const text = command.kind === 'add' ? `The user collects zqctl${texts.n++}x stamps.` : `The user collects zqfix${texts.n++}x coins.`;
  if (command.kind === 'add') return { command, owner, text };
  const whose = command.foreign ? USERS[1 - command.user]! : owner.userId;
  const candidates = [...state.active].filter(([, held]) => held.user === whose);
  if (candidates.length === 0) return { command, owner, text };
  return { command, owner, text, id: candidates[command.pick % candidates.length]![0] };
}

async function run(memories: readonly Memory[], resolved: Resolved): Promise<PromiseSettledResult<unknown> | undefined> {
  const memory = memories[resolved.command.instance]!;
  const { command, owner, id, text } = resolved;
  const n = text.match(/\d+/)![0];
  let act: Promise<unknown>;
  if (command.kind === 'add') act = memory.remember({ content: text, topic: `hobby${n}` }, { ...owner, source: { type: 'user_explicit', id: `r${n}` } });
  else if (id === undefined) return undefined;
  else if (command.kind === 'forget') act = memory.forget(id, owner);
  else if (command.kind === 'correct') act = memory.correct(id, text, owner);
  else act = command.kind === 'pin' ? memory.pin(id, owner) : memory.unpin(id, owner);
  return act.then(
    (value) => ({ status: 'fulfilled', value }),
    (reason: unknown) => ({ status: 'rejected', reason }),
  );
}

/**
 * Applies one settled command to `state` as if it ran alone there; resolves to whether it
 * changed the store (a forget that erased, a correction, a pin or unpin that ran), or throws
 * when the outcome is not the one this state predicts.
 */
function apply(state: State, { command, owner, id, text }: Resolved, result: PromiseSettledResult<unknown> | undefined): boolean {
  if (result === undefined) return false;
  const what = `${command.kind} of ${id ?? text}`;
  if (command.kind === 'add') {
    if (result.status === 'rejected') throw result.reason;
    const operation = result.value as Operation;
    expect(operation.action, what).toBe('CREATE');
    state.active.set(operation.memoryId, { user: owner.userId, content: text, pinned: false, past: [] });
    return true;
  }
  if (command.foreign) {
    expect(result.status === 'rejected' && result.reason instanceof NotFoundError, `${what} of another user's memory is refused as not found`).toBe(true);
    return false;
  }
  if (command.kind === 'forget') {
    if (result.status === 'rejected') throw result.reason;
    // An id a correction moved on from names the same memory: forget follows it to its current version.
    let head = id!;
    while (state.next.has(head)) head = state.next.get(head)!;
    const held = state.active.get(head);
    if (!held) return false;
    state.active.delete(head);
    for (const content of [...held.past, held.content]) state.forgotten.add(content);
    if (held.past.length) state.lines++;
    return true;
  }
  const held = state.active.get(id!);
  if (!held) {
    // Corrected or forgotten first: only an active memory can be changed.
    expect(result.status === 'rejected' && result.reason instanceof ConflictError, `${what}, no longer active, is refused with ConflictError`).toBe(true);
    return false;
  }
  if (result.status === 'rejected') throw result.reason;
  if (command.kind === 'correct') {
    const operation = result.value as Operation;
    expect(operation, what).toMatchObject({ action: 'UPDATE', targetId: id });
    state.active.delete(id!);
    state.active.set(operation.memoryId, { ...held, content: text, past: [...held.past, held.content] });
    state.next.set(id!, operation.memoryId);
    return true;
  }
  held.pinned = command.kind === 'pin';
  expect((result.value as { pinned?: boolean }).pinned ?? false, what).toBe(held.pinned);
  return true;
}

/** What `list` shows each user in `state`. */
function expectedLists(state: State): string[][][] {
  return USERS.map((userId) =>
    [...state.active]
      .filter(([, held]) => held.user === userId)
      .map(([id, held]) => [id, held.content, String(held.pinned)])
      .sort(),
  );
}

async function listed(memory: Memory): Promise<string[][][]> {
  return Promise.all(USERS.map(async (userId) => (await memory.list({ userId, appName: 'default' })).map((record) => [record.id, record.content, String(record.pinned ?? false)]).sort()));
}

/**
 * The state after a step: one command applied, or for two at once the first serial order whose
 * predicted outcomes hold and whose state the store shows. Resolves to it and, per command,
 * whether it acted.
 */
async function settleStep(memory: Memory, state: State, step: readonly Resolved[], results: readonly (PromiseSettledResult<unknown> | undefined)[]): Promise<{ state: State; acted: boolean[] }> {
  const orders =
    step.length === 1
      ? [[0]]
      : [
          [0, 1],
          [1, 0],
        ];
  const seen = await listed(memory);
  const failures: string[] = [];
  for (const order of orders) {
    const next = copy(state);
    const acted: boolean[] = [];
    try {
      for (const i of order) acted[i] = apply(next, step[i]!, results[i]);
      expect(seen).toEqual(expectedLists(next));
      return { state: next, acted };
    } catch (error) {
      failures.push(`order ${order.join(' then ')}: ${(error as Error).message}`);
    }
  }
  throw new Error(`no serial order of ${step.map(({ command, id }) => `${command.kind}(${id ?? ''}) on instance ${command.instance}`).join(' and ')} explains the outcome:\n${failures.join('\n')}`);
}

async function checkAgainst(memories: readonly Memory[], state: State): Promise<void> {
  for (const userId of USERS) {
    const owner = { userId, appName: 'default' };
    for (const memory of memories) {
      const retrieved = (await memory.retrieve('The user collects stamps', { ...owner, k: 50 })).map((hit) => hit.memory.content);
      const exported = JSON.stringify(await memory.export(owner));
      for (const text of state.forgotten) {
        expect(retrieved, `forgotten '${text}' retrieved`).not.toContain(text);
        expect(exported.includes(text), `forgotten '${text}' exported`).toBe(false);
      }
    }
  }
  // The first instance's list was compared when the step settled; the second must show the same.
  expect(await listed(memories[1]!)).toEqual(expectedLists(state));
}

/** The control-verb model over `runs` random plans; resolves to the steps run, those with two commands at once, and the verbs that changed the store. */
export async function checkControlModel(stores: ReviewStores, runs: number): Promise<{ steps: number; concurrent: number; forgotten: number; corrected: number; pinned: number; lineages: number }> {
  const counts = { steps: 0, concurrent: 0, forgotten: 0, corrected: 0, pinned: 0, lineages: 0 };
  await fc.assert(
    fc.asyncProperty(planArbitrary, async (plan) => {
      const store = await stores.store();
      const opened = [await stores.on(store, { idGenerator: createSequentialIds('a_') }), await stores.on(store, { idGenerator: createSequentialIds('b_') })];
      const memories = opened.map((entry) => entry.memory);
      let state: State = { active: new Map(), next: new Map(), forgotten: new Set(), lines: 0 };
      const texts = { n: 0 };
      let at = opened[0]!.clock();
      for (const commands of plan) {
        at += 60_000;
        for (const entry of opened) entry.clock.set(at);
        const step = commands.map((command) => resolve(state, command, texts));
        const results = await Promise.all(step.map((resolved) => run(memories, resolved)));
        const settled = await settleStep(memories[0]!, state, step, results);
        counts.lineages += settled.state.lines - state.lines;
        state = settled.state;
        step.forEach(({ command }, i) => {
          if (!settled.acted[i]) return;
          if (command.kind === 'forget') counts.forgotten++;
          if (command.kind === 'correct') counts.corrected++;
          if (command.kind === 'pin') counts.pinned++;
        });
        if (step.some(({ command }, i) => command.kind === 'forget' && settled.acted[i])) {
          const held = await storedText(store);
          for (const text of state.forgotten) expect(held.includes(text), `forgotten '${text}' is still in the store`).toBe(false);
        }
        await checkAgainst(memories, state);
        counts.steps++;
        if (step.length === 2) counts.concurrent++;
      }
    }),
    { numRuns: runs, seed: 24 },
  );
  return counts;
}
