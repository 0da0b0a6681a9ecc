/**
 * Finishing schema upgrades that were cut short; run after every open. Closing the tab while an
 * upgrade's data step awaits its reads ends the page's script, and the upgrade transaction, with
 * no request left, commits: the database is at the new version with the new indexes, but rows
 * the step had not rewritten yet are missing from them (in Chromium, a v3 database closed during
 * the upgrade was left at the new version with 0 of 1414 rows migrated, all invisible to the
 * `active` index, so retrieval found nothing). A row an index needs a field for is in that
 * index, so comparing two index counts tells; each step skips rows already done, so running it
 * again is safe.
 *
 * Counting an index walks it (in Chromium, each of the four counts reads every row of a 100k
 * store), so once every step is found done the schema version is recorded in the `partitions`
 * table and later opens at that version skip the counts. An upgrade to a later version, cut
 * short or not, finds an older version there and counts again.
 */
import { addFactKey, addHeldMark, heldMarkWrong, type EngramDatabase } from './database';
import { migrateToLineage } from './lineage-migration';

/** The `partitions` row naming the schema version whose upgrade steps were last found complete. */
export const UPGRADES_DONE_KEY = 'engram:upgrades-done';

/**
 * Reruns every upgrade step whose index misses rows; resolves to how many rows each step found
 * undone (`null`: this schema version was already found complete, nothing was counted).
 */
export async function finishUpgrades(db: EngramDatabase): Promise<{ lineage: number; factKeys: number; heldMarks: number } | null> {
  if ((await db.partitions.get(UPGRADES_DONE_KEY))?.version === db.verno) return null;
  const found = await countAndFinish(db);
  await db.partitions.put({ key: UPGRADES_DONE_KEY, version: db.verno });
  return found;
}

async function countAndFinish(db: EngramDatabase): Promise<{ lineage: number; factKeys: number; heldMarks: number }> {
  // v4: every row carries its lineage fields (and with them `active`), so it is in [chain+depth].
  const [all, chained] = await Promise.all([db.memories.count(), db.memories.orderBy('[chain+depth]').count()]);
  if (all !== chained) await db.transaction('rw', [db.memories, db.inputs, db.lineage, db.events], (transaction) => migrateToLineage(transaction));
  // v5: every active-indexed row carries its fact key, so it is in the identical-fact index too.
  const [active, keyed] = await Promise.all([db.memories.orderBy('[userId+appName+active]').count(), db.memories.orderBy('[userId+appName+fact+active]').count()]);
  if (active !== keyed) await db.transaction('rw', db.memories, () => db.memories.toCollection().modify(addFactKey));
  // v6: no index tells an unmarked held input from any other, so the inputs are read once (this
  // runs once per schema version) and only the rows whose mark is wrong are rewritten.
  const heldMarks = await db.transaction('rw', db.inputs, () => db.inputs.filter(heldMarkWrong).modify(addHeldMark));
  return { lineage: all - chained, factKeys: active - keyed, heldMarks };
}
