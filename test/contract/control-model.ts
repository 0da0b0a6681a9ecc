/**
 * The user's control verbs as a model, for any backend (describeStorageContract runs it): two
 * instances on one store, fed seeded random sequences of remember, forget, correct, pin and
 * unpin (each on a random instance, some aimed at the other user's memory), checked after every
 * step against a reference model of each user's active memories (id, content, pinned): `list`
 * equals it on both instances, `retrieve` and `export` hold no forgotten text, and after every
 * forget no forgotten text is anywhere in the store (the erasure canary).
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import { NotFoundError, type Memory } from '../../src/index';
import { createSequentialIds } from '../helpers/memory';
import { storedText } from './harness';
import type { ReviewStores } from './review';

const USERS = ['u1', 'u2'] as const;

type Command = { kind: 'add' | 'forget' | 'correct' | 'pin' | 'unpin'; instance: number; user: number; pick: number; foreign: boolean };

const commandArbitrary: fc.Arbitrary<Command> = fc.record({
  kind: fc.constantFrom<Command['kind']>('add', 'add', 'add', 'forget', 'correct', 'pin', 'unpin'),
  instance: fc.nat({ max: 1 }),
  user: fc.nat({ max: 1 }),
  pick: fc.nat({ max: 7 }),
  // One in ten aims at the other user's memory: refused as if it did not exist.
  foreign: fc.nat({ max: 9 }).map((roll) => roll === 0),
});
const planArbitrary = fc.array(commandArbitrary, { minLength: 30, maxLength: 30 });

interface Held {
  user: string;
  content: string;
  pinned: boolean;
  /** Made by `correct`: forgetting it would let the version it superseded stand again, which the model leaves out. */
  corrected: boolean;
}

/** The reference: each active memory by id, and every text forget erased. */
class ControlModel {
  readonly active = new Map<string, Held>();
  readonly forgotten = new Set<string>();
  texts = 0;
}

/** Runs one command against its instance and the model; resolves to whether the verb acted on one of its own user's memories. */
async function step(memories: readonly Memory[], model: ControlModel, command: Command): Promise<boolean> {
  const memory = memories[command.instance]!;
  const userId = USERS[command.user]!;
  const owner = { userId, appName: 'default' };
  if (command.kind === 'add') {
    const content = `The user collects zqctl${model.texts++}x stamps.`;
    const operation = await memory.remember({ content, topic: `hobby${model.texts}` }, { ...owner, source: { type: 'user_explicit', id: `r${model.texts}` } });
    expect(operation.action).toBe('CREATE');
    model.active.set(operation.memoryId, { user: userId, content, pinned: false, corrected: false });
    return true;
  }
  const whose = command.foreign ? USERS[1 - command.user]! : userId;
  const candidates = [...model.active].filter(([, held]) => held.user === whose && (command.kind !== 'forget' || !held.corrected));
  if (candidates.length === 0) return false;
  const [id, held] = candidates[command.pick % candidates.length]!;
  const fixed = `The user collects zqfix${model.texts++}x coins.`;
  const act = (): Promise<unknown> => {
    if (command.kind === 'forget') return memory.forget(id, owner);
    if (command.kind === 'correct') return memory.correct(id, fixed, owner);
    return command.kind === 'pin' ? memory.pin(id, owner) : memory.unpin(id, owner);
  };
  if (command.foreign) {
    await expect(act(), `${command.kind} of another user's ${id}`).rejects.toThrow(NotFoundError);
    return false;
  }
  const result = await act();
  if (command.kind === 'forget') {
    model.active.delete(id);
    model.forgotten.add(held.content);
  } else if (command.kind === 'correct') {
    const operation = result as Awaited<ReturnType<Memory['correct']>>;
    expect(operation).toMatchObject({ action: 'UPDATE', targetId: id });
    model.active.delete(id);
    model.active.set(operation.memoryId, { ...held, content: fixed, corrected: true });
  } else {
    held.pinned = command.kind === 'pin';
    expect((result as { pinned?: boolean }).pinned ?? false).toBe(held.pinned);
  }
  return true;
}

async function checkAgainst(memories: readonly Memory[], model: ControlModel): Promise<void> {
  for (const userId of USERS) {
    const owner = { userId, appName: 'default' };
    const expected = [...model.active]
      .filter(([, held]) => held.user === userId)
      .map(([id, held]) => [id, held.content, held.pinned])
      .sort();
    for (const memory of memories) {
      const listed = (await memory.list(owner)).map((record) => [record.id, record.content, record.pinned ?? false]).sort();
      expect(listed).toEqual(expected);
      const retrieved = (await memory.retrieve('The user collects stamps', { ...owner, k: 50 })).map((hit) => hit.memory.content);
      const exported = JSON.stringify(await memory.export(owner));
      for (const text of model.forgotten) {
        expect(retrieved, `forgotten '${text}' retrieved`).not.toContain(text);
        expect(exported.includes(text), `forgotten '${text}' exported`).toBe(false);
      }
    }
  }
}

/** The control-verb model over `runs` random plans; resolves to the steps run and the verbs that changed the store. */
export async function checkControlModel(stores: ReviewStores, runs: number): Promise<{ steps: number; forgotten: number; corrected: number; pinned: number }> {
  const counts = { steps: 0, forgotten: 0, corrected: 0, pinned: 0 };
  await fc.assert(
    fc.asyncProperty(planArbitrary, async (plan) => {
      const store = await stores.store();
      const opened = [await stores.on(store, { idGenerator: createSequentialIds('a_') }), await stores.on(store, { idGenerator: createSequentialIds('b_') })];
      const memories = opened.map((entry) => entry.memory);
      const model = new ControlModel();
      let at = opened[0]!.clock();
      for (const command of plan) {
        at += 60_000;
        for (const entry of opened) entry.clock.set(at);
        const acted = await step(memories, model, command);
        if (acted && command.kind === 'forget') {
          counts.forgotten++;
          const held = await storedText(store);
          for (const text of model.forgotten) expect(held.includes(text), `forgotten '${text}' is still in the store`).toBe(false);
        }
        if (acted && command.kind === 'correct') counts.corrected++;
        if (acted && command.kind === 'pin') counts.pinned++;
        await checkAgainst(memories, model);
        counts.steps++;
      }
    }),
    { numRuns: runs, seed: 24 },
  );
  return counts;
}
