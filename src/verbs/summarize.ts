/** `memory.summarizeSession`: one session-scope summary of the user's durable statements. */
import { userMessagesOf } from '../extract/candidates';
import { Messages, parseInput, SummarizeOptions } from '../options';
import type { ChatMessage, Operation } from '../schema';
import type { MemoryDeps } from './deps';
import { writeConversation, writeInput } from './write-input';

export async function summarizeSession(deps: MemoryDeps, messages: readonly ChatMessage[], options: SummarizeOptions): Promise<Operation | null> {
  const userMessages = userMessagesOf(parseInput(Messages, messages, 'messages'));
  const parsed = parseInput(SummarizeOptions, options, 'options');
  const input = writeInput('summary', { ...parsed, scope: 'session' }, deps.clock(), { messages: userMessages });
  const [operation] = await writeConversation(deps, input);
  return operation ?? null;
}
