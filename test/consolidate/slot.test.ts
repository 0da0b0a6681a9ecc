/**
 * Changes of mind on every topic (slot.ts): a fact replaces the earlier one about the same thing
 * (liking ↔ disliking it, doing ↔ having stopped, having ↔ no longer having, a plan ↔ its
 * cancellation), with the trust gate, lineage and erasure of the exclusive topics; different
 * things of one topic stay side by side.
 */
import { describe, expect, it } from 'vitest';
import type { Decider, MemoryRecord, SourceType } from '../../src/index';
import { changesMind, slotOf } from '../../src/consolidate/slot';
import { forgetVersusFresh, type Conversation } from '../contract/equivalence';
import { createTestMemory, DAY, openTestMemory, T0 } from '../helpers/memory';

const owner = { userId: 'u1' };
const write = (id: string, type: SourceType = 'user_explicit') => ({ ...owner, sessionId: id, source: { type, id } });
const say = (content: string) => [{ role: 'user' as const, content }];
const contents = (records: readonly MemoryRecord[]) => records.map((record) => record.content).sort();

/** Each change of mind the issue names: what the user said first, and what they said later, and the facts each one yields. */
const CHANGES = [
  { first: 'I sing in a choir.', later: 'I quit the choir.', was: 'The user sings in a choir.', now: 'The user quit the choir.' },
  { first: 'I hate olives.', later: 'I used to hate olives, now I love them.', was: 'The user hates olives.', now: 'The user used to hate olives.' },
  { first: 'I love olives.', later: "I don't like olives anymore.", was: 'The user loves olives.', now: 'The user no longer likes olives.' },
  { first: 'I play the guitar.', later: 'I stopped playing the guitar.', was: 'The user plays the guitar.', now: 'The user stopped playing the guitar.' },
  { first: 'I have a dog named Rex.', later: 'My dog Rex passed away.', was: 'The user has a dog named Rex.', now: "The user's dog Rex passed away." },
  { first: 'I have a car.', later: 'I sold my car.', was: 'The user has a car.', now: 'The user sold their car.' },
  { first: "I'm planning a trip to Japan.", later: 'I cancelled my trip to Japan.', was: 'The user is planning a trip to Japan.', now: 'The user cancelled their trip to Japan.' },
];

/** Changes of mind as people type them in chat (the conversation suite's dev half), read by the speech reader and applied by the slot rule. */
const SAID_CHANGES = (
  [
    ['and i drive a little fiat panda which is falling apart haha', 'also sold the panda, not worth the hassle', 'The user drives a little fiat panda.', 'The user sold the panda.'],
    ["I'm signing up for the half marathon.", 'ugh pulled my calf so the half marathon is off', 'The user is signing up for the half marathon.', "The user's half marathon is cancelled."],
    ['me and my gf are going to japan in october', 'the japan trip is cancelled obviously', 'The user and their gf are going to japan in october.', "The user's japan trip is cancelled."],
    ['I go everywhere with my bike.', 'somebody stole my bike from outside the library', 'The user goes everywhere with their bike.', "The user's bike was stolen."],
    ['I booked a gig at the Ivy.', 'had to cancel the gig tho', 'The user booked a gig at the Ivy.', 'The user cancelled the gig tho.'],
    ['I smoke too much.', "i don't smoke anymore", 'The user smokes too much.', 'The user no longer smokes.'],
    ['I do yoga on sundays.', "i'm not doing yoga anymore", 'The user does yoga on sundays.', 'The user has stopped doing yoga.'],
    ['I love football.', "honestly i'm so over football", 'The user loves football.', 'The user is over football.'],
    ['i love olives btw', 'weirdly i went off olives', 'The user loves olives.', 'The user went off olives.'],
  ] as const
).map(([first, later, was, now]) => ({ first, later, was, now }));

describe('slots (changes of mind on every topic)', () => {
  it('reads the kind, what the fact is about and its polarity from the fact text', () => {
    // A positive `do` fact is about its own verb too ("sings" → sing), so "stopped singing" finds it.
    expect(slotOf({ topic: 'hobby', content: 'The user sings in a choir.' })).toEqual({ kind: 'do', about: 'choir sing', polarity: 1 });
    expect(slotOf({ topic: 'event', content: 'The user quit the choir.' })).toEqual({ kind: 'do', about: 'choir', polarity: -1 });
    expect(slotOf({ topic: 'preference', content: 'The user hates olives.' })).toEqual({ kind: 'like', about: 'oliv', polarity: -1 });
    expect(slotOf({ topic: 'preference', content: 'The user used to hate olives.' })).toEqual({ kind: 'like', about: 'oliv', polarity: 1 });
    expect(slotOf({ topic: 'pets', content: "The user's dog Rex passed away." })).toEqual({ kind: 'have', about: 'dog rex', polarity: -1 });
    expect(slotOf({ topic: 'pets', content: 'The user has a dog named Rex.' })).toEqual({ kind: 'have', about: 'dog rex', polarity: 1 });
    expect(slotOf({ topic: 'event', content: 'The user cancelled their trip to Japan.' })).toEqual({ kind: 'plan', about: 'japan', polarity: -1 });
    expect(slotOf({ topic: 'event', content: 'The user stopped playing the guitar.' })).toEqual({ kind: 'do', about: 'guitar', polarity: -1 });
    // Said with others, or with only the verb: still the user's doing.
    expect(slotOf({ topic: 'hobby', content: 'The user and others play covers at bars.' })).toEqual({ kind: 'do', about: 'bar cover play', polarity: 1 });
    expect(slotOf({ topic: 'event', content: 'The user and their gf are going to japan in october.' })).toEqual({ kind: 'plan', about: 'japan', polarity: 1 });
    expect(slotOf({ topic: 'preference', content: 'The user no longer smokes.' })).toEqual({ kind: 'do', about: 'smok', polarity: -1 });
    expect(slotOf({ topic: 'plan', content: "The user's half marathon is cancelled." })).toEqual({ kind: 'plan', about: 'half marathon', polarity: -1 });
    // No verb it reads, an episode, a summary: no slot.
    expect(slotOf({ topic: 'work', content: 'The user works from home.' })).toBeUndefined();
    expect(slotOf({ topic: 'episode', content: 'I love olives.' })).toBeUndefined();
    expect(slotOf({ topic: 'session-summary', content: 'The user loves olives.' })).toBeUndefined();
  });

  it('reads past adverbs, and takes a verb after "no longer", "used to", "doesn\'t" or "is not" on its other side', () => {
    expect(slotOf({ topic: 'hobby', content: 'The user no longer plays volleyball.' })).toEqual({ kind: 'do', about: 'volleyball', polarity: -1 });
    expect(slotOf({ topic: 'hobby', content: 'The user used to play the guitar.' })).toEqual({ kind: 'do', about: 'guitar', polarity: -1 });
    expect(slotOf({ topic: 'preference', content: "The user doesn't like olives anymore." })).toEqual({ kind: 'like', about: 'oliv', polarity: -1 });
    expect(slotOf({ topic: 'preference', content: 'The user is no longer into techno.' })).toEqual({ kind: 'like', about: 'techno', polarity: -1 });
    expect(slotOf({ topic: 'plan', content: 'The user is not planning a trip to Lisbon.' })).toEqual({ kind: 'plan', about: 'lisbon', polarity: -1 });
    expect(slotOf({ topic: 'preference', content: 'The user really loves jazz.' })).toEqual({ kind: 'like', about: 'jazz', polarity: 1 });
    expect(slotOf({ topic: 'preference', content: 'The user now hates olives.' })).toEqual({ kind: 'like', about: 'oliv', polarity: -1 });
    // The longest verb wins whatever its kind: "has booked" is a plan, not a possession.
    expect(slotOf({ topic: 'trip', content: 'The user has booked a cruise to the Norwegian fjords.' })).toMatchObject({ kind: 'plan', polarity: 1 });
  });

  /** [later, earlier, whether the later changes the mind the earlier stated], each a class of the dev conversations' misses. */
  const PAIRS: readonly [string, string, boolean][] = [
    // What the negative side names is within what the positive side names, its qualifiers (when, where, with whom) left over.
    ['The user quit the choir.', 'The user sings alto in a community choir on tuesdays.', true],
    ['The user stopped the volleyball.', 'The user plays volleyball with uni team on thursdays.', true],
    ['The user gave up bowls.', 'The user plays bowls on Thursdays at the club.', true],
    ['The user is leaving the choir obviously.', 'The user sings in a choir.', true],
    ['The user rejoined the community choir.', 'The user quit the choir.', true],
    // The gerund alone is the thing; a positive activity verb is about itself.
    ['The user quit smoking in the week of 14 April 2025.', 'The user smokes too much.', true],
    ['The user stopped running.', 'The user runs every weekend.', true],
    ['The user stopped singing.', 'The user sings in a choir.', true],
    // A thing of the user's that ended; ending a thing had is ending a thing done.
    ["The user's band split up.", 'The user plays bass in a band with some guys from work.', true],
    ["The user's bike was stolen.", 'The user has a bike.', true],
    ['The user sold the panda.', 'The user drives a little fiat panda.', true],
    ['The user gave up their allotment.', 'The user has an allotment.', true],
    // Plans and their cancellation, the plan's generic noun left out.
    ['The user cancelled the cruise.', 'The user has booked a cruise to the Norwegian fjords.', true],
    ['The user pulled out of the half marathon.', 'The user signed up for the half marathon.', true],
    ['The user cancelled the Japan trip.', 'The user is going to Japan.', true],
    // Liking.
    ['The user went off olives.', 'The user loves olives.', true],
    ['The user no longer hates techno.', 'The user hates techno.', true],
    // No change: a negative side about more than the positive one, another kind, the same side, another thing.
    ['The user hates music festivals.', 'The user loves music.', false],
    ['The user quit the choir.', 'The user loves the choir.', false],
    ['The user loves jazz.', 'The user likes jazz.', false],
    ['The user sold their car.', 'The user plays the guitar.', false],
    ['The user stopped the volleyball.', 'The user plays tennis.', false],
  ];
  /** [later, earlier, whether it changes the mind]: the forms the speech reader writes for the change statements people make (issue 42 item 2). */
  const SAID_PAIRS: readonly [string, string, boolean][] = [
    ["The user's half marathon is cancelled.", 'The user is signing up for the leeds half marathon in june.', true],
    ["The user's japan trip is cancelled.", 'The user and their gf are going to japan in october.', true],
    ["The user's bike was stolen.", 'The user goes everywhere with their bike.', true],
    ['The user had to cancel the gig tho.', 'The user booked a gig at nice n sleazy in may.', true],
    ['The user had to give up their allotment.', 'The user grows vegetables on their allotment most days.', true],
    ['The user no longer smokes.', 'The user smokes too much.', true],
    ['The user has stopped doing yoga.', 'The user does yoga on sundays.', true],
    ['The user is over football.', 'The user loves football.', true],
    ['The user is sick of running.', 'The user enjoys running.', true],
    ["The user's band split up.", 'The user and others play in a band.', true],
    // Another thing on one topic stays: a stop or an end names what the positive side does not.
    ['The user is single.', 'The user has a boyfriend named Tom.', true],
    ['The user is single.', 'The user has a dog.', false],
    ['The user stopped by the shop.', 'The user goes to the shop on fridays.', false],
    ['The user is sick of running.', 'The user loves jazz.', false],
    ["The user's japan trip is cancelled.", 'The user and their gf are going to peru.', false],
    ['The user no longer smokes.', 'The user drinks too much.', false],
    ["The user's bike was stolen.", 'The user has a car.', false],
  ];
  for (const [later, earlier, changes] of [...PAIRS, ...SAID_PAIRS]) {
    it(`${changes ? 'changes' : 'does not change'} '${earlier}' with '${later}'`, () => {
      expect(changesMind({ topic: 'event', content: later }, { topic: 'hobby', content: earlier }, new Set(['diet']))).toBe(changes);
    });
  }

  it('replaces a memory whose slot names more than the change does, found by the sweep on another topic, and keeps a different thing', async () => {
    const { memory } = await createTestMemory();
    try {
      const was = await memory.remember({ topic: 'hobby', content: 'The user plays volleyball with the uni team on thursdays.' }, write('s1'));
      await memory.remember({ topic: 'hobby', content: 'The user plays tennis.' }, write('s2'));
      const operation = await memory.remember({ topic: 'event', content: 'The user stopped the volleyball.' }, write('s3'));
      expect(operation).toMatchObject({ action: 'UPDATE', targetId: was.memoryId });
      expect(contents(await memory.list(owner))).toEqual(['The user plays tennis.', 'The user stopped the volleyball.']);
    } finally {
      await memory.close();
    }
  });

  for (const change of [...CHANGES, ...SAID_CHANGES]) {
    it(`replaces '${change.was}' with '${change.now}', lineage drawn and the old turn retired`, async () => {
      const { memory } = await createTestMemory({ episodes: true });
      try {
        await memory.ingest(say(change.first), write('s1'));
        const [old] = (await memory.list(owner)).filter((record) => record.content === change.was);
        expect(old, `'${change.first}' yields '${change.was}'`).toBeDefined();
        const operations = await memory.ingest(say(change.later), write('s2'));
        const update = operations.find((operation) => operation.content === change.now);
        expect(update).toMatchObject({ action: 'UPDATE', targetId: old!.id });
        const active = await memory.list(owner);
        expect(contents(active.filter((record) => record.topic !== 'episode'))).toEqual([change.now]);
        // The turn that said the old value is no longer one the model is shown.
        expect(contents(active.filter((record) => record.topic === 'episode'))).toEqual([change.later]);
        const replaced = await memory.get(old!.id, owner);
        expect(replaced).toMatchObject({ supersededBy: update!.memoryId });
        expect((await memory.get(update!.memoryId, owner)).sources.map((source) => source.id)).toEqual(['s1', 's2']);
      } finally {
        await memory.close();
      }
    });
  }

  it('keeps different things of one topic side by side, and one thing liked and played as two slots', async () => {
    const { memory } = await createTestMemory();
    try {
      for (const [i, text] of ['I love hiking.', 'I love jazz.', 'I play the guitar.', 'I love the guitar.', 'I have a dog.', 'I have a cat.'].entries()) await memory.ingest(say(text), write(`s${i}`));
      expect(contents(await memory.list(owner))).toEqual(['The user has a cat.', 'The user has a dog.', 'The user loves hiking.', 'The user loves jazz.', 'The user loves the guitar.', 'The user plays the guitar.']);
    } finally {
      await memory.close();
    }
  });

  it('refuses a change from a less trusted source, as on an exclusive topic', async () => {
    const { memory } = await createTestMemory();
    try {
      await memory.ingest(say('I sing in a choir.'), write('s1'));
      const [operation] = await memory.ingest(say('I quit the choir.'), write('t1', 'tool_output'));
      expect(operation).toMatchObject({ action: 'NOOP', reason: expect.stringContaining('lower-trust source') });
      expect(contents(await memory.list(owner))).toEqual(['The user sings in a choir.']);
    } finally {
      await memory.close();
    }
  });

  it('makes a decider that proposes CREATE replace the slot all the same: a decider only proposes', async () => {
    const createAlways: Decider = { decide: () => ({ action: 'CREATE', reason: 'the model said new' }) };
    const { memory } = await createTestMemory({ decider: createAlways });
    try {
      await memory.ingest(say('I sing in a choir.'), write('s1'));
      const [operation] = await memory.ingest(say('I quit the choir.'), write('s2'));
      expect(operation).toMatchObject({ action: 'UPDATE', reason: expect.stringContaining("the slot 'what the user does: choir' already holds") });
      expect(contents(await memory.list(owner))).toEqual(['The user quit the choir.']);
    } finally {
      await memory.close();
    }
  });

  for (const revoked of ['s1', 's2']) {
    it(`forgetSource('${revoked}') of a change of mind equals a store that never saw it, episodes on`, async () => {
      const conversations: Conversation[] = [...CHANGES, ...SAID_CHANGES].flatMap((change, i) => [
        { kind: 'ingest', userId: 'u1', sourceId: 's1', sourceType: 'user_implicit', sessionId: `a${i}`, at: T0 + i * DAY, text: change.first },
        { kind: 'ingest', userId: 'u1', sourceId: 's2', sourceType: 'user_explicit', sessionId: `b${i}`, at: T0 + (30 + i) * DAY, text: change.later },
      ]);
      const { before, after, expected } = await forgetVersusFresh(openTestMemory, conversations, 'u1', revoked, ['u1']);
      expect(after).toEqual(expected);
      expect(after['u1']).not.toEqual(before);
    });
  }

  it('joins by slot only the topics the live sweep reads, so a replay decides as the live write did (forget of an unrelated fact, forgetSource ≡ fresh)', async () => {
    // "learning Japanese" is on `language`, a topic no slot reads: live, "I quit Japanese." found
    // no earlier value and stood beside it. A replay holds every memory; joining it by slot there
    // superseded the Japanese memory when the dog was forgotten.
    const turns = [
      ['s1', 'I am learning Japanese with a private tutor over video calls using old textbooks from the library.'],
      ['s2', 'I have a dog named Rex.'],
      ['s3', 'I quit Japanese.'],
    ] as const;
    const { memory, clock } = await createTestMemory();
    try {
      for (const [id, text] of turns) {
        await memory.ingest(say(text), write(id, 'user_implicit'));
        clock.advance(DAY);
      }
      const facts = async () => contents((await memory.list(owner)).filter((record) => record.topic !== 'episode'));
      const live = await facts();
      expect(live.some((content) => content.includes('Japanese with a private tutor'))).toBe(true);
      const dog = (await memory.list(owner)).find((record) => record.content.includes('Rex') && record.topic !== 'episode')!;
      await memory.forget(dog.id, owner);
      expect(await facts()).toEqual(live.filter((content) => !content.includes('Rex')));
    } finally {
      await memory.close();
    }
    const conversations: Conversation[] = turns.map(([id, text], i) => ({ kind: 'ingest', userId: 'u1', sourceId: id, sourceType: 'user_implicit', sessionId: id, at: T0 + i * DAY, text }));
    const { after, expected } = await forgetVersusFresh(openTestMemory, conversations, 'u1', 's2', ['u1']);
    expect(after).toEqual(expected);
  });
});

describe('relationship statuses and "is over" read only what they say (review defects)', () => {
  const changes = (later: string, earlier: string) => changesMind({ topic: 'event', content: later }, { topic: 'hobby', content: earlier }, new Set(['diet']));
  it('reads a relationship status only where it ends its clause or a time or the partner follows, and a break-up only with a partner', () => {
    // A status word that ends the clause, or is followed by a time or the partner, is a status: each of these ends the other side.
    const statuses = ['The user is single now.', 'The user is divorced since 2019.', 'The user broke up with their boyfriend.', 'The user split up with their long-term girlfriend.'];
    const couples = ['The user got married last year.', 'The user is engaged to Sam.', 'The user is married to their high school sweetheart.', 'The user is in a relationship.'];
    for (const single of statuses) for (const couple of couples) expect([changes(single, couple), changes(couple, single)], `'${single}' / '${couple}'`).toEqual([true, true]);
    // The same words about something else are no status: they end neither side.
    const others = [
      'The user is engaged in a research project.',
      'The user is single-handedly running the shop.',
      'The user is separated from the rest of the team.',
      'The user split up with their band.',
      'The user broke up with their business partner.',
    ];
    for (const other of others) for (const side of [...statuses, ...couples]) expect(changes(other, side), `'${other}' after '${side}'`).toBe(false);
  });

  it('reads "is over" as a dislike only before what the user is over, never before a number or "the moon"', () => {
    for (const content of ['The user is over 40.', 'The user is over the moon about the new job.', 'The user is over forty.', 'The user is over six feet tall.', 'The user is over the age of 18.']) {
      expect(slotOf({ topic: 'preference', content }), content).toBeUndefined();
    }
    expect(changes('The user is over the moon about the new job.', 'The user loves the new job.')).toBe(false);
    for (const content of ['The user is over true crime.', 'The user is over football.', 'The user is over their ex.', 'The user is over the gym.']) {
      expect(slotOf({ topic: 'preference', content })?.polarity, content).toBe(-1);
    }
    expect(changes('The user is over true crime.', 'The user loves true crime podcasts.')).toBe(true);
  });
});
