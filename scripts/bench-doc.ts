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
  // A bench often prints a blank line before a table: inside the block it is noise.
  const blank = (line: string | undefined) => line !== undefined && line.trim() === '';
  let from = 0;
  let to = lines.length;
  while (from < to && blank(lines[from])) from++;
  while (to > from && blank(lines[to - 1])) to--;
  const kept = lines.slice(from, to);
  const body = [open, `## ${title}`, '', `\`${command}\`, ${when} UTC, ${cpus().length} cores, load ${load}.`, '', '```text', ...kept, '```', close].join('\n');
  const text = existsSync(path) ? readFileSync(path, 'utf8') : HEAD;
  const start = text.indexOf(open);
  const end = text.indexOf(close);
  const next = start >= 0 && end > start ? text.slice(0, start) + body + text.slice(end + close.length) : `${text.trimEnd()}\n\n${body}\n`;
  writeFileSync(path, next);
}

/** What a bench section needs of its environment: the function it prints its lines with. */
export interface Printing {
  print(line: string): void;
}

/**
 * Runs one section of a bench with `env.print` teed into a list (the lines still print as
 * before), then writes that list as section `name` of docs/benchmarks.md. Returns what `run` did.
 */
export async function benchSection<E extends Printing, T>(env: E, name: string, title: string, command: string, run: (env: E) => T | Promise<T>): Promise<T> {
  const lines: string[] = [];
  const teed: E = {
    ...env,
    print: (line: string) => {
      lines.push(line);
      env.print(line);
    },
  };
  const result = await run(teed);
  writeBenchSection(name, title, command, lines);
  return result;
}

/** The command line that ran this bench (`npm run bench -- --speech-only`), for a section's header. */
export function benchCommand(script: string, args: readonly string[]): string {
  return args.length ? `npm run ${script} -- ${args.join(' ')}` : `npm run ${script}`;
}
