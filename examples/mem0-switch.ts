/**
 * A mem0 OSS script, switched to engram by its import line. Run: `npx tsx examples/mem0-switch.ts`.
 *
 * In a browser that is the whole change. Under Node, IndexedDB comes from fake-indexeddb (the
 * first import).
 */
import 'fake-indexeddb/auto';
// import { Memory } from 'mem0ai/oss';
import { Memory } from 'engram/mem0';

const memory = new Memory();

const messages = [
  { role: 'user', content: "Hi! I'm vegetarian, and call me Ada." },
  { role: 'assistant', content: 'Nice to meet you, Ada! Noted.' },
  { role: 'user', content: 'On flights I prefer the aisle seat.' },
];
const added = await memory.add(messages, { userId: 'alice', metadata: { channel: 'onboarding' } });
console.log('add:', JSON.stringify(added, null, 2));

const found = await memory.search('What should I cook for dinner?', { filters: { user_id: 'alice' }, topK: 2 });
console.log('search:', JSON.stringify(found, null, 2));

// A contradiction on an exclusive topic is an UPDATE of the diet memory: same id, new text.
const diet = added.results.find((item) => item.memory.includes('vegetarian'))!;
await memory.add("Actually, I'm vegan now.", { userId: 'alice' });
console.log('get:', JSON.stringify(await memory.get(diet.id)));
console.log('history:', await memory.history(diet.id));
const onboarding = await memory.getAll({ filters: { user_id: 'alice', channel: 'onboarding' } });
console.log('getAll (metadata filter):', JSON.stringify(onboarding.results.map((item) => item.memory)));

// delete forgets the messages behind the memory (so no text of it is left) and keeps the rest,
// under their ids: 'The user goes by Ada.' came from the same message as the diet.
await memory.delete(diet.id);
console.log('after delete:', JSON.stringify((await memory.getAll({ filters: { user_id: 'alice' } })).results.map((item) => item.memory)));

await memory.deleteAll({ userId: 'alice' });
await memory.reset();
