/**
 * Owners and partitions: the isolation model in one place. A caller sees its own memories
 * (user and session scope) plus its app's app-scope memories, and nothing else.
 */
import type { MemoryRecord, Scope } from '../schema';

export interface Owner {
  userId: string;
  appName: string;
}

/**
 * The one isolation predicate. Every read path filters with it, even after an indexed query
 * that should already have done so: a bug in an index query must not become a leak.
 */
export function isVisibleTo(record: Pick<MemoryRecord, 'userId' | 'appName' | 'scope'>, owner: Owner): boolean {
  return record.appName === owner.appName && (record.scope === 'app' || (record.userId !== '' && record.userId === owner.userId));
}

/**
 * The `userId` a record or input of `scope` is stored with: `''` for app scope, which belongs
 * to the whole app and to no user, else the owner's. The one place the app-scope rule is written.
 */
export function recordUserId(owner: Pick<Owner, 'userId'>, scope: Scope): string {
  return scope === 'app' ? '' : owner.userId;
}

// JSON arrays, not concatenation: 'a|b' + 'c' and 'a' + 'b|c' must never share a key.
/** The partition holding an owner's user- and session-scope memories. */
export function userPartition(owner: Owner): string {
  return JSON.stringify(['user', owner.appName, owner.userId]);
}

/** The partition holding an app's app-scope memories. */
export function appPartition(appName: string): string {
  return JSON.stringify(['app', appName]);
}

export function partitionOf(record: Pick<MemoryRecord, 'userId' | 'appName' | 'scope'>): string {
  return record.scope === 'app' ? appPartition(record.appName) : userPartition(record);
}

/** The partitions a read of `scopes` covers: the owner's own (user, session) and its app's (app). */
export function partitionsFor(owner: Owner, scopes: readonly Scope[]): string[] {
  return [...(scopes.includes('user') || scopes.includes('session') ? [userPartition(owner)] : []), ...(scopes.includes('app') ? [appPartition(owner.appName)] : [])];
}
