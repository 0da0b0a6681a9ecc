/** `memory.list`, `memory.get` and `memory.history`: reading what is stored (or, `asOf`, what was), always for one owner. */
import { NotFoundError } from '../errors';
import { ListOptions, parseInput, parseOwner, type OwnerOptions } from '../options';
import { isEpisode } from '../extract/topics';
import type { HistoryEntry, ListedMemory, MemoryRecord } from '../schema';
import type { RecordLocation } from '../storage/contract';
import { Id } from '../schema';
import type { MemoryDeps } from './deps';
import { occasionalVerbs } from './load';

export async function list(deps: MemoryDeps, options: ListOptions): Promise<ListedMemory[]> {
  const parsed = parseInput(ListOptions, options, 'options');
  const owner = { userId: parsed.userId, appName: parsed.appName };
  const records =
    parsed.asOf !== undefined
      ? await (await occasionalVerbs()).listAsOf(deps, owner, parsed.asOf, parsed.includeInvalid)
      : await deps.storage.records.list(owner, { scopes: ['user', 'session', 'app'], includeInvalid: parsed.includeInvalid });
  return records.map((record) => ({ ...record, kind: isEpisode(record) ? 'episode' : 'fact' }));
}

export async function get(deps: Pick<MemoryDeps, 'storage'>, id: string, options: OwnerOptions): Promise<MemoryRecord> {
  const memoryId = parseInput(Id, id, 'id');
  const owner = parseOwner(options, 'owner');
  const [record] = await deps.storage.records.getMany([memoryId], owner);
  // A foreign id and a missing id look the same: existence is not leaked across owners.
  if (!record) throw new NotFoundError(`no memory '${memoryId}' for user '${owner.userId}' in app '${owner.appName}'`);
  return record;
}

export async function history(deps: Pick<MemoryDeps, 'storage'>, id: string, options: OwnerOptions): Promise<HistoryEntry[]> {
  return (await get(deps, id, options)).history;
}

/** Facade-only (engram/mem0, through facade-access.ts): where any record is, by id (RecordStore.locate). */
export async function locate(deps: Pick<MemoryDeps, 'storage'>, id: string): Promise<RecordLocation | undefined> {
  return deps.storage.records.locate(parseInput(Id, id, 'id'));
}
