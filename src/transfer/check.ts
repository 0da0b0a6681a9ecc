/**
 * What an export must hold together before a byte of it is written: every memory is the named
 * owner's and not app scope, ids are unique, every `supersededBy` points at a tombstoned
 * memory's successor inside the export without a cycle, and every source a memory still quotes
 * has the stored input it came from (or `forgetSource` of it could not find it after the move),
 * and no active memory reads as an instruction to the model.
 */
import { instructionSignal } from '../defences';
import { PermissionError, ValidationError } from '../errors';
import { sourceKey } from '../storage/working-form';
import type { OwnerExport } from './format';
import { sliced } from '../slices';

/**
 * In slices (slices.ts): a check of 10,000 memories must not hold the page's thread.
 * @throws PermissionError for another owner's or an app-scope memory, ValidationError for an inconsistent export.
 */
export async function checkExport(data: OwnerExport): Promise<void> {
  const ids = new Map<string, number>();
  await sliced(data.memories.length, (i) => {
    const memory = data.memories[i]!;
    const path = `data.memories.${i}`;
    if (memory.scope === 'app') throw new PermissionError(`${path} ('${memory.id}') is an app-scope memory: those belong to every user of '${memory.appName}' and are never imported as one user's; remove it from the export`);
    if (memory.userId !== data.userId || memory.appName !== data.appName) {
      throw new PermissionError(`${path} ('${memory.id}') belongs to user '${memory.userId}' in app '${memory.appName}', not to the export's owner '${data.userId}' in '${data.appName}'; an export holds one owner's memories only`);
    }
    // What the prompt would carry: an active memory that reads as an instruction to the model
    // (an edited file; the write paths refuse such text) never comes in (defences.ts).
    const signal = memory.invalidatedAt === undefined ? instructionSignal(memory.content) : undefined;
    if (signal !== undefined) throw new PermissionError(`${path} ('${memory.id}') reads as an instruction to the model (${signal}), which a memory handed to the model may not carry; remove it from the export`);
    if (memory.scope === 'session' && memory.sessionId === undefined) throw new ValidationError(`${path}.sessionId`, `is missing on a session-scope memory ('${memory.id}')`);
    if (ids.has(memory.id)) throw new ValidationError(`${path}.id`, `'${memory.id}' appears twice (also at data.memories.${ids.get(memory.id)}); the export is damaged`);
    ids.set(memory.id, i);
  });
  await checkSupersession(data);
  await checkSourcesHaveInputs(data);
  checkPending(data, ids);
  await sliced(data.inputs.length, (i) => {
    const input = data.inputs[i]!;
    if (input.kind === 'remember' && (input.scope === 'session') !== (input.sessionId !== undefined)) {
      throw new ValidationError(`data.inputs.${i}`, "a remembered fact has a sessionId exactly when its scope is 'session'");
    }
  });
}

/** `supersededBy` links stay inside the export, leave from tombstones only, and never loop. */
async function checkSupersession(data: OwnerExport): Promise<void> {
  const next = new Map(data.memories.map((memory) => [memory.id, memory.supersededBy]));
  await sliced(data.memories.length, (i) => {
    const memory = data.memories[i]!;
    if (memory.supersededBy === undefined) return;
    const path = `data.memories.${i}.supersededBy`;
    if (!next.has(memory.supersededBy)) throw new ValidationError(path, `points at '${memory.supersededBy}', which is not in the export; the export is damaged or incomplete`);
    if (memory.invalidatedAt === undefined) throw new ValidationError(path, `is set on '${memory.id}', which is active; only a tombstone has a successor`);
  });
  const settled = new Set<string>();
  await sliced(data.memories.length, (i) => {
    const memory = data.memories[i]!;
    const seen = new Set<string>();
    for (let id: string | undefined = memory.id; id !== undefined && !settled.has(id); id = next.get(id)) {
      if (seen.has(id)) throw new ValidationError('data.memories', `supersededBy links form a cycle through '${id}'; a lineage only moves forward`);
      seen.add(id);
    }
    for (const id of seen) settled.add(id);
  });
}

/** A source whose excerpt is still there was not revoked, so its input must be in the export too. */
async function checkSourcesHaveInputs(data: OwnerExport): Promise<void> {
  const stored = new Set(data.inputs.flatMap((input) => (input.kind === 'prune' ? [] : [sourceKey(input.source)])));
  await sliced(data.memories.length, (i) => {
    const memory = data.memories[i]!;
    memory.sources.forEach((source, j) => {
      if (source.excerpt !== '' && !stored.has(sourceKey(source))) {
        throw new ValidationError(`data.memories.${i}.sources.${j}`, `source '${source.id}' (${source.type}) has no stored input in the export, so forgetSource could not replay without it; the export is damaged or incomplete`);
      }
    });
  });
}

/** Pending entries name a candidate of their input, and an id no memory or other entry of the export has. */
function checkPending(data: OwnerExport, memoryIds: ReadonlyMap<string, number>): void {
  const seen = new Set<string>();
  data.inputs.forEach((input, i) => {
    if (input.kind === 'prune') return;
    (input.pending ?? []).forEach((entry, j) => {
      const path = `data.inputs.${i}.pending.${j}`;
      if (entry.index >= (input.candidates?.length ?? 0)) throw new ValidationError(`${path}.index`, `is ${entry.index}, but the input holds ${input.candidates?.length ?? 0} candidates; the export is damaged`);
      if (memoryIds.has(entry.id) || seen.has(entry.id)) throw new ValidationError(`${path}.id`, `'${entry.id}' is also the id of another memory or pending entry of the export; the export is damaged`);
      seen.add(entry.id);
    });
  });
}
