/**
 * `memory.export`: one owner's data in the 'engram-export/1' format (format.ts). The inverse of
 * {@link toInputRow} in import.ts: an input exported and imported is stored as it was.
 */
import type { InputRow, Owner, RecordStore } from '../storage/contract';
import { EXPORT_FORMAT, type ExportedInput, type OwnerExport } from './format';

/** One stored input in export form: what replay needs of it, without the owner (the export names it once). */
export function toExportedInput(input: InputRow): ExportedInput {
  if (input.kind === 'prune') return { kind: 'prune', at: input.at, floor: input.floor };
  const metadata = input.metadata !== undefined ? { metadata: input.metadata } : {};
  // A held write (review/held.ts) keeps its pending entries, and the candidates they name.
  const pending = input.pending?.length ? { pending: input.pending } : {};
  const candidates = input.candidates !== undefined ? { candidates: input.candidates } : {};
  const approved = input.approved ? { approved: true as const } : {};
  if (input.kind === 'remember') {
    const session = { ...(input.scope === 'session' ? { scope: 'session' as const } : {}), ...(input.sessionId !== '' ? { sessionId: input.sessionId } : {}) };
    const held = input.pending?.length ? { ...candidates, ...pending } : {};
    return { kind: 'remember', at: input.at, ...session, source: input.source, fact: input.fact!, ...metadata, ...(input.replaces !== undefined ? { replaces: input.replaces } : {}), ...held, ...approved };
  }
  return { kind: input.kind, at: input.at, sessionId: input.sessionId, source: input.source, messages: input.messages, ...metadata, ...candidates, ...pending, ...approved };
}

/**
 * Everything stored for `owner`: user- and session-scope memories with tombstones (app-scope
 * memories are the app's, not the user's), vectors left out, and the inputs in write order.
 */
export async function exportOwner(store: Pick<RecordStore, 'list' | 'inputs'>, owner: Owner, now: number): Promise<OwnerExport> {
  const [records, inputs] = await Promise.all([store.list(owner, { scopes: ['user', 'session'], includeInvalid: true }), store.inputs(owner)]);
  return {
    format: EXPORT_FORMAT,
    exportedAt: now,
    userId: owner.userId,
    appName: owner.appName,
    memories: records.map(({ embedding: _vector, ...record }) => record),
    inputs: inputs.map(toExportedInput),
  };
}
