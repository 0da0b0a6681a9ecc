/**
 * Stored snapshot chunks (database.ts `PackedColumns`) to compute rows (worker/api.ts
 * `IndexRows`) and back. Apart from vector-pack.ts so that the sealing, which must seal exactly
 * the values a snapshot stores, builds them with the same function.
 */
import type { Scope } from '../schema';
import { SCOPE_CODE, type IndexRows } from '../worker/api';
import { STORED_SCOPE_CODE, type PackedColumns } from './database';

// Stored scope codes are fixed on disk; the compute's may change. Identical today, so chunks
// pass through untouched; otherwise each chunk's codes are translated on the way.
const SCOPES = Object.keys(STORED_SCOPE_CODE) as Scope[];
const SAME_CODES = SCOPES.every((scope) => STORED_SCOPE_CODE[scope] === SCOPE_CODE[scope]);

function translateScopes(codes: Uint8Array, from: Readonly<Record<Scope, number>>, to: Readonly<Record<Scope, number>>): Uint8Array {
  if (SAME_CODES) return codes;
  const table = new Uint8Array(256);
  for (const scope of SCOPES) table[from[scope]] = to[scope];
  return codes.map((code) => table[code]!);
}

/** A stored chunk as compute rows. */
export function chunkRows(row: PackedColumns): IndexRows {
  const { ids, vectors, updatedAt, halfLifeDays, importance, scopes, sessionIds, terms, termOffsets, codes, codeLayout, codeStride, codeScales, codeErrors, codeNorms, postingTerms, postingStarts, postingEntries } = row;
  const scopeCodes = translateScopes(scopes, STORED_SCOPE_CODE, SCOPE_CODE);
  const coded = codes && codeScales && codeErrors && codeNorms ? { codes: { layout: codeLayout ?? 0, stride: codeStride ?? 0, bytes: codes, scales: codeScales, errors: codeErrors, norms: codeNorms } } : {};
  const postings = terms && termOffsets && postingTerms && postingStarts && postingEntries ? { postings: { terms: postingTerms, starts: postingStarts, entries: postingEntries } } : {};
  return { ids, vectors, ...coded, updatedAt, halfLifeDays, importance, scopes: scopeCodes, sessionIds, ...(terms && termOffsets ? { terms, termOffsets } : {}), ...postings };
}

/** Compute rows as a stored chunk. */
export function storedColumns(rows: IndexRows): PackedColumns {
  const { ids, vectors, updatedAt, halfLifeDays, importance, scopes, sessionIds, terms, termOffsets, codes, postings } = rows;
  const scopeCodes = translateScopes(scopes, SCOPE_CODE, STORED_SCOPE_CODE);
  const coded = codes ? { codes: codes.bytes, codeLayout: codes.layout, codeStride: codes.stride, codeScales: codes.scales, codeErrors: codes.errors, codeNorms: codes.norms } : {};
  const grouped = terms && termOffsets && postings ? { postingTerms: postings.terms, postingStarts: postings.starts, postingEntries: postings.entries } : {};
  return { ids, vectors, ...coded, updatedAt, halfLifeDays, importance, scopes: scopeCodes, sessionIds, ...(terms && termOffsets ? { terms, termOffsets } : {}), ...grouped };
}
