/**
 * docs/benchmarks.md is written by the benches themselves, so its tables cannot go stale: each
 * bench hands the lines it printed for one section to `writeBenchSection`, which replaces that
 * section (between `<!-- bench:NAME -->` and `<!-- /bench:NAME -->`) and leaves the others as
 * they were. A section carries the command, the date and the machine's load when it ran.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg, cpus } from 'node:os';
import { fileURLToPath } from 'node:url';

const DOC = fileURLToPath(new URL('../docs/benchmarks.md', import.meta.url));
const HEAD = '# Benchmarks\n\nWritten by the benches (scripts/bench-doc.ts): each section is replaced by the run that printed it. Do not edit by hand.\n';

/** Replaces (or appends) section `name` of docs/benchmarks.md with `lines` under `title`. Set ENGRAM_BENCH_DOC=0 to leave the file alone. */
export function writeBenchSection(name: string, title: string, command: string, lines: readonly string[], path = DOC): void {
  if (process.env.ENGRAM_BENCH_DOC === '0') return;
  if (!/^[a-z0-9-]+$/.test(name)) throw new Error(`bench section name ${JSON.stringify(name)}: use lower-case letters, digits and dashes`);
  const open = `<!-- bench:${name} -->`;
  const close = `<!-- /bench:${name} -->`;
  const when = new Date().toISOString().slice(0, 16).replace('T', ' ');
  const load = loadavg()[0]?.toFixed(1) ?? '?';
  const body = [open, `## ${title}`, '', `\`${command}\`, ${when} UTC, ${cpus().length} cores, load ${load}.`, '', '```text', ...lines, '```', close].join('\n');
  const text = existsSync(path) ? readFileSync(path, 'utf8') : HEAD;
  const start = text.indexOf(open);
  const end = text.indexOf(close);
  const next = start >= 0 && end > start ? text.slice(0, start) + body + text.slice(end + close.length) : `${text.trimEnd()}\n\n${body}\n`;
  writeFileSync(path, next);
}
