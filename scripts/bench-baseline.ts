/**
 * The comparison with an earlier release for `npm run bench:browser -- --baseline=<rev>`: the
 * release's own tree from git (`git archive`, into a temp dir, dependencies from this checkout's
 * node_modules) and its own benchmark page, run in the same Chromium as this tree's, the two
 * alternating round by round so both see the same machine. Only the end-to-end table is
 * compared: each release's page prints it with the same columns.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeBenchSection } from './bench-doc';

/** The release `rev`'s tree in a temp dir, ready to build its bench/ page; `dispose` removes it. */
export async function checkoutRelease(repo: string, rev: string): Promise<{ dir: string; commit: string; dispose(): Promise<void> }> {
  const commit = execFileSync('git', ['-C', repo, 'rev-parse', '--verify', `${rev}^{commit}`], { encoding: 'utf8' }).trim();
  const dir = await mkdtemp(join(tmpdir(), `engram-baseline-${commit.slice(0, 7)}-`));
  const archive = execFileSync('git', ['-C', repo, 'archive', '--format=tar', commit], { maxBuffer: 1 << 30 });
  execFileSync('tar', ['-x', '-C', dir], { input: archive });
  // The release's dependencies are a subset of today's at the same pins; the bench page only
  // needs them resolvable from its tree.
  await symlink(join(repo, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return { dir, commit, dispose: () => rm(dir, { recursive: true, force: true }) };
}

/** One row of an end-to-end table: every column by its header. */
export type EndToEndRow = Record<string, number>;

/** The rows of the "End to end" table in a page's printed lines (columns split on runs of 2+ spaces). */
export function parseEndToEnd(lines: readonly string[]): EndToEndRow[] {
  const start = lines.findIndex((line) => line.startsWith('End to end'));
  if (start < 0) return [];
  const header = lines[start + 1]!.trim().split(/\s{2,}/);
  const rows: EndToEndRow[] = [];
  for (const line of lines.slice(start + 2)) {
    const cells = line.trim().split(/\s{2,}/);
    if (!/^\d+$/.test(cells[0] ?? '')) break;
    const row: EndToEndRow = {};
    header.forEach((name, i) => (row[name] = Number((cells[i] ?? '').replace(/,/g, '').split(/[ /]/)[0])));
    rows.push(row);
  }
  return rows;
}

const COMPARED = ['retrieve p50', 'retrieve p95', 'cold start', 'build', 'ingest p50 (10)', 'compute MB'] as const;

function median(values: readonly number[]): number {
  const sorted = [...values].filter(Number.isFinite).sort((a, b) => a - b);
  if (!sorted.length) return Number.NaN;
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function fmt(value: number): string {
  return !Number.isFinite(value) ? '–' : value < 10 ? value.toFixed(2) : value < 100 ? value.toFixed(1) : value.toFixed(0);
}

/**
 * The comparison table: per size and column, the baseline's and this tree's median over the
 * rounds, their ratio (this / baseline), and each round's own ratio (the two ran back to back).
 */
export function printComparison(print: (line: string) => void, label: { baseline: string; current: string }, rounds: readonly { baseline: EndToEndRow[]; current: EndToEndRow[] }[]): void {
  const sizes = [...new Set(rounds.flatMap((round) => round.current.map((row) => row['N']!)))];
  print('');
  print(`End to end, ${label.current} against ${label.baseline}, ${rounds.length} alternating round(s) in this run (medians; ratio = current / baseline)`);
  const widths = [8, 16, 12, 12, 10, 24];
  const pad = (cells: string[]) => cells.map((cell, i) => (i < 2 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  print(pad(['N', 'column', 'baseline', 'current', 'ratio', 'per-round ratios']));
  for (const n of sizes) {
    for (const column of COMPARED) {
      const pick = (rows: readonly EndToEndRow[]) => rows.find((row) => row['N'] === n)?.[column] ?? Number.NaN;
      const base = rounds.map((round) => pick(round.baseline));
      const mine = rounds.map((round) => pick(round.current));
      if (base.every((value) => !Number.isFinite(value))) continue;
      const perRound = rounds.map((_, i) => `${(mine[i]! / base[i]!).toFixed(2)}×`).join(' ');
      print(pad([String(n), column, fmt(median(base)), fmt(median(mine)), `${(median(mine) / median(base)).toFixed(2)}×`, perRound]));
    }
  }
}

/** This tree's stage breakdowns (the lines from "Where a retrieve goes" up to the brute-force verdict). */
export function stageLines(lines: readonly string[]): string[] {
  const start = lines.findIndex((line) => line.startsWith('Where a retrieve goes'));
  if (start < 0) return [];
  const end = lines.findIndex((line, i) => i > start && line.startsWith('every top-k'));
  return lines.slice(start, end < 0 ? undefined : end).filter((line, i, all) => line !== '' || all[i + 1] !== '');
}

/** Writes the comparison and this tree's stage breakdowns to docs/benchmarks.md (section `browser-end-to-end`). */
export function publishComparison(baseline: string, table: readonly string[], stages: readonly string[], argv: readonly string[] = process.argv.slice(2)): void {
  const lines = [...table.filter((line, i) => i > 0 || line !== ''), '', ...stages];
  writeBenchSection('browser-end-to-end', `End to end in Chromium against ${baseline}`, `npm run bench:browser -- ${argv.join(' ')}`, lines);
}
