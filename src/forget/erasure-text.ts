/**
 * How an erasure takes text out of a record: one function blanks it ({@link blankText}), and
 * an erased tombstone is a blanked record with the reason for its erasure ({@link erase}).
 */
import type { HistoryEntry, MemoryRecord, Source } from '../schema';

export const REDACTED = '[redacted: source revoked]';

/** The record without the caller's metadata: it is the erased write's, like the text. */
export function withoutMetadata(record: MemoryRecord): MemoryRecord {
  const { metadata: _metadata, ...rest } = record;
  return rest;
}

/** Whether a source's excerpt goes: its source is revoked, or it quotes a forgotten span (forget). */
export type Blanks = (source: Source) => boolean;

/** The sources with the excerpts that go ({@link Blanks}) blanked. */
export function redactSources(sources: readonly Source[], blanks: Blanks): Source[] {
  return sources.map((source) => (source.excerpt !== '' && blanks(source) ? { ...source, excerpt: '' } : source));
}

/**
 * A decision reason may quote the text it decided on (an LLM decider's does), so a record
 * whose text goes keeps its events, times and links but not their reasons.
 */
export function generalize(entry: HistoryEntry): HistoryEntry {
  return { ...entry, reason: entry.related === undefined ? entry.event : `${entry.event} (${entry.related})` };
}

/**
 * A vector with nothing of the text in it. Zeros of the same length, not an empty array: the
 * record schema requires a non-empty finite vector, and tombstones are never scanned anyway.
 */
function blank(embedding: Float32Array): Float32Array {
  return new Float32Array(Math.max(1, embedding.length));
}

/** Whether `record` is already the tombstone {@link erase} would make: erasing twice changes nothing. */
export function isErased(record: MemoryRecord, blanks: Blanks): boolean {
  return record.content === REDACTED && record.invalidatedAt !== undefined && record.history.at(-1)?.event === 'erased' && record.sources.every((source) => source.excerpt === '' || !blanks(source));
}

/**
 * The record with every piece of its text gone: content, the excerpts that go, the
 * vector, the caller's metadata and the reasons of its history (events, times and links stay).
 * The one way an erasure removes text from a record.
 */
export function blankText(record: MemoryRecord, blanks: Blanks): MemoryRecord {
  return { ...withoutMetadata(record), content: REDACTED, embedding: blank(record.embedding), sources: redactSources(record.sources, blanks), history: record.history.map(generalize) };
}

/** A tombstone that keeps id, times, topic, links and the reason for erasure; every piece of text is gone. */
export function erase(record: MemoryRecord, blanks: Blanks, now: number, reason: string): MemoryRecord {
  const blanked = blankText(record, blanks);
  return { ...blanked, invalidatedAt: record.invalidatedAt ?? now, history: [...blanked.history, { at: now, event: 'erased', reason }] };
}
