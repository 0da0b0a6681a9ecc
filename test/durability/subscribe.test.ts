import { IDBFactory } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { ValidationError, type ChangeEvent, type Memory } from '../../src/index';
import { createSequentialIds, createTestMemory } from '../helpers/memory';

const ada = { userId: 'u_ada', appName: 'trips' };
const bob = { userId: 'u_bob', appName: 'trips' };
const opened: Memory[] = [];
afterEach(async () => {
  while (opened.length) await opened.pop()!.close();
});

/** Two instances on one database, as two tabs are. */
async function twoInstances() {
  const factory = new IDBFactory();
  const name = `subscribe-${Math.random()}`;
  const a = await createTestMemory({ indexedDB: factory, name });
  const b = await createTestMemory({ indexedDB: factory, name, idGenerator: createSequentialIds('b_') });
  opened.push(a.memory, b.memory);
  return [a.memory, b.memory] as const;
}

const fact = (content: string, id: string) => [{ content, topic: id }, { source: { type: 'user_explicit' as const, id } }] as const;

/** Resolves when `events` reaches `count` entries. */
const until = (events: unknown[], count: number) => expect.poll(() => events.length, { timeout: 2_000 }).toBeGreaterThanOrEqual(count);

describe('Memory.subscribe', () => {
  it("fires in another instance when one instance changes that owner's memories", async () => {
    const [a, b] = await twoInstances();
    const events: ChangeEvent[] = [];
    b.subscribe(ada, (event) => events.push(event));
    const [content, options] = fact('The user likes jazz.', 'f1');
    await a.remember(content, { ...ada, ...options });
    await until(events, 1);
    expect(events[0]).toEqual(ada);
    await a.forgetSource('f1', ada);
    await until(events, 2);
  });

  it("does not fire for another owner's writes, and fires for the app's app-scope ones", async () => {
    const [a, b] = await twoInstances();
    const events: ChangeEvent[] = [];
    b.subscribe(ada, (event) => events.push(event));
    const bobs: ChangeEvent[] = [];
    b.subscribe(bob, (event) => bobs.push(event));
    await a.remember({ content: 'Bob likes tea.', topic: 'drinks' }, { ...bob, source: { type: 'user_explicit', id: 'b1' } });
    await until(bobs, 1);
    expect(events).toEqual([]);
    await a.remember({ content: 'Solaris Trips serves no alcohol.', topic: 'policy' }, { appName: 'trips', scope: 'app', source: { type: 'bootstrapped', id: 'crm-1' } });
    await until(events, 1);
  });

  it('stops calling the listener once unsubscribed', async () => {
    const [a, b] = await twoInstances();
    const events: ChangeEvent[] = [];
    const stop = b.subscribe(ada, (event) => events.push(event));
    const [content, options] = fact('The user likes jazz.', 'f1');
    await a.remember(content, { ...ada, ...options });
    await until(events, 1);
    stop();
    const marker: ChangeEvent[] = [];
    a.subscribe(ada, (event) => marker.push(event));
    await a.remember({ content: 'The user likes tea.', topic: 'drinks' }, { ...ada, source: { type: 'user_explicit', id: 'f2' } });
    // The other listener saw the second write, so the stopped one had its chance to.
    await until(marker, 1);
    expect(events).toHaveLength(1);
  });

  it('rejects a bad owner or a listener that is not a function with ValidationError', async () => {
    const [a] = await twoInstances();
    expect(() => a.subscribe({ userId: '' }, () => undefined)).toThrow(ValidationError);
    expect(() => a.subscribe(ada, 'call me' as never)).toThrow(ValidationError);
  });
});
