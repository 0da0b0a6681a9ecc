/**
 * Id-only calls (`get`, `update`, `delete`, `history`): a mem0 id names a memory alone. It is
 * located in the database by the facade-only read (RecordStore.locate), then read with engram's
 * owner-scoped `get` under the owner found, and followed along its chain (lineage.ts).
 */
import { NotFoundError, ValidationError, type Memory as EngramMemory, type MemoryRecord } from 'engram';
import type { Locate, ReplaceOnly, RetrieveUnfloored } from '../../facade-access';
import { cachedReader, chainFrom, rootOf, type ReadRecord } from './lineage';

/**
 * The key facade-access.ts puts the locate read under. Spelled here, not imported: a runtime
 * import would put that module in a chunk both entries share, and engram/mem0 must import
 * nothing but 'engram' (test/build.test.ts). mem0.test.ts checks the two keys are one symbol.
 */
export const LOCATE_KEY: symbol = Symbol.for('engram.facade.locate');

/** The key of facade-access.ts's replace-only remember, spelled here for the same reason. */
export const REPLACE_ONLY_KEY: symbol = Symbol.for('engram.facade.replaceOnly');

/** The key of facade-access.ts's retrieve without the relevance floor, spelled here for the same reason. */
export const RETRIEVE_UNFLOORED_KEY: symbol = Symbol.for('engram.facade.retrieveUnfloored');

/** The floorless retrieve of a memory made by `createMemory`, or undefined for any other object. */
export function retrieveUnflooredOf(memory: object): RetrieveUnfloored | undefined {
  const call = (memory as Record<symbol, unknown>)[RETRIEVE_UNFLOORED_KEY];
  return typeof call === 'function' ? (call as RetrieveUnfloored) : undefined;
}

/** The replace-only remember of a memory made by `createMemory`, or undefined for any other object. */
export function replaceOnlyOf(memory: object): ReplaceOnly | undefined {
  const call = (memory as Record<symbol, unknown>)[REPLACE_ONLY_KEY];
  return typeof call === 'function' ? (call as ReplaceOnly) : undefined;
}

/** The locate read of a memory made by `createMemory`, or undefined for any other object. */
function locatorOf(memory: object): Locate | undefined {
  const locate = (memory as Record<symbol, unknown>)[LOCATE_KEY];
  return typeof locate === 'function' ? (locate as Locate) : undefined;
}

export interface Owner {
  userId: string;
  appName: string;
}

/** A located mem0 memory: its owner, the chain from its first record, and a reader for that owner. */
export interface Resolved {
  owner: Owner;
  /** The chain's records from the first (whose id is the mem0 id) to the last. */
  chain: MemoryRecord[];
  read: ReadRecord;
}

/** A reader of one owner's records (any state) through engram's owner-scoped get. */
export function ownerReader(engram: EngramMemory, owner: Owner): ReadRecord {
  return cachedReader(async (id) => {
    try {
      return await engram.get(id, owner);
    } catch (error) {
      if (error instanceof NotFoundError) return undefined;
      throw error;
    }
  });
}

/**
 * Where `id` is: the owner the database holds it under (only `restrict`'s, when the facade was
 * configured for one user), or undefined when no such memory is there. App-scope records are
 * no user's mem0 memory.
 */
async function ownerOfId(engram: EngramMemory, id: string, method: string, restrict: Owner | undefined): Promise<Owner | undefined> {
  const locate = locatorOf(engram);
  if (!locate) {
    if (restrict) return restrict;
    throw new ValidationError(`${method}(id)`, 'this engram memory was not made by createMemory, so an id cannot be located alone: construct the facade with new Memory({ userId, agentId? })');
  }
  const location = await locate(id);
  if (!location || location.scope === 'app') return restrict && location?.scope === 'app' ? restrict : undefined;
  if (restrict && (location.userId !== restrict.userId || location.appName !== restrict.appName)) return undefined;
  return { userId: location.userId, appName: location.appName };
}

/** The memory `id` names (any state), or undefined when the database holds no such memory (for this facade). */
export async function resolveId(engram: EngramMemory, id: unknown, method: string, restrict: Owner | undefined): Promise<Resolved | undefined> {
  if (typeof id !== 'string' || id.trim() === '') throw new ValidationError(`${method}(id)`, `must be a non-empty string (got ${typeof id === 'string' ? "''" : typeof id})`);
  const owner = await ownerOfId(engram, id, method, restrict);
  if (!owner) return undefined;
  const read = ownerReader(engram, owner);
  const record = await read(id);
  if (!record) return undefined;
  const root = await rootOf(record, read);
  return { owner, chain: await chainFrom(root, read), read };
}
