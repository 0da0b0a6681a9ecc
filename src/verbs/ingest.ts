/** `memory.ingest`: the user messages of a conversation, extracted and consolidated into the user's memories. */
import { userMessagesOf } from '../extract/candidates';
import { IngestOptions, Messages, parseInput } from '../options';
import type { ChatMessage, Operation } from '../schema';
import type { MemoryDeps } from './deps';
import { writeConversation, writeInput } from './write-input';

export async function ingest(deps: MemoryDeps, messages: readonly ChatMessage[], options: IngestOptions): Promise<Operation[]> {
  const userMessages = userMessagesOf(parseInput(Messages, messages, 'messages'));
  const parsed = parseInput(IngestOptions, options, 'options');
  // Ingest never writes app scope (invariant 2): the owner is the caller, the scope is 'user'.
  const input = writeInput('ingest', { ...parsed, scope: 'user' }, deps.clock(), { messages: userMessages });
  return writeConversation(deps, input);
}
