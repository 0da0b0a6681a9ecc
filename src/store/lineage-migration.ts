/**
 * The v3 → v4 upgrade: every stored memory keeps all of its data. Its sources move to
 * `lineage` and its history to `events` (each memory its own chain: v3 rows carry their
 * inherited sources in full), the row keeps the summary, and `active` is filled so the topic
 * sweep's index sees it. A row whose lists are not arrays is left as it was: it is corrupt,
 * and reads quarantine it exactly as before.
 */
import type { Transaction } from 'dexie';
import { sourceKey, summarize } from '../storage/working-form';
import type { EventRow, LineageRow, MemoryRow } from './rows';

export async function migrateToLineage(transaction: Transaction): Promise<void> {
  const memories = transaction.table<MemoryRow & { sourceIds?: string[] }, string>('memories');
  const rows = await memories.toArray();
  // Unknown when a v3 row last changed: at the end of the history stored so far, so every
  // erasure of a source from that history reads it (MemoryRow.changed).
  const changed = ((await transaction.table('inputs').toCollection().primaryKeys()) as number[]).reduce((max, seq) => Math.max(max, seq), 0);
  const out: MemoryRow[] = [];
  const lineage: LineageRow[] = [];
  const events: EventRow[] = [];
  for (const { sourceIds: _ids, ...row } of rows) {
    if (row.chain !== undefined || !Array.isArray(row.sources) || !Array.isArray(row.history)) continue;
    const owner = { userId: row.userId, appName: row.appName };
    const seen = new Set<string>();
    const sources = row.sources.filter((source) => !seen.has(sourceKey(source)) && seen.add(sourceKey(source)));
    sources.forEach((source, n) => lineage.push({ memoryId: row.id, n, chain: row.id, depth: 0, ...owner, sourceId: source.id, source }));
    row.history.forEach((entry, n) => events.push({ memoryId: row.id, n, ...owner, entry }));
    out.push({
      ...row,
      sources: summarize(sources),
      history: [],
      active: row.invalidatedAt === undefined ? 1 : 0,
      chain: row.id,
      depth: 0,
      sourceCount: sources.length,
      sourceTotal: sources.length,
      historyCount: row.history.length,
      changed,
    });
  }
  await memories.bulkPut(out);
  await transaction.table<LineageRow, [string, number]>('lineage').bulkPut(lineage);
  await transaction.table<EventRow, [string, number]>('events').bulkPut(events);
}
