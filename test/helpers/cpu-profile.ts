/**
 * CPU per test file, for profiling the run (loaded as a setup file only when ENGRAM_CPU_PROFILE
 * names a file, see vite.config.ts): when a file's tests end, appends one JSON line with the CPU
 * seconds its worker process used since the file began, its own and that of the child processes
 * it waited for (the Chromium browsers an e2e file launched and closed, a Chroma server a file
 * started itself). Wall times under a shared machine's load say little; these add up to the run's
 * CPU, which on a 2-core machine bounds its wall time from below.
 *
 * Read from /proc (Linux): Node reports its own CPU (`process.cpuUsage`) but not its children's.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { afterAll } from 'vitest';

const out = process.env['ENGRAM_CPU_PROFILE'];

/** utime, stime, cutime and cstime of this process, in seconds. */
function cpu(): { self: number; children: number } {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat
    .slice(stat.lastIndexOf(')') + 2)
    .split(' ')
    .map(Number);
  // Fields 14–17 of stat(5), counted from the state field (3) after the command name.
  const [utime = 0, stime = 0, cutime = 0, cstime = 0] = fields.slice(11, 15);
  const tick = 100;
  return { self: (utime + stime) / tick, children: (cutime + cstime) / tick };
}

if (out) {
  // From here, before the test file is imported: its import (the sources it loads) is its cost too.
  const start = cpu();
  const began = Date.now();
  // biome-ignore lint/correctness/noEmptyPattern: Vitest reads the first parameter as a fixture pattern (it must destructure); the file is the second.
  afterAll(({}, suite) => {
    const end = cpu();
    const file = suite.file;
    const line = {
      file: file.filepath.replace(`${process.cwd()}/`, ''),
      project: file.projectName ?? '',
      wall: (Date.now() - began) / 1000,
      self: +(end.self - start.self).toFixed(2),
      children: +(end.children - start.children).toFixed(2),
    };
    appendFileSync(out, `${JSON.stringify(line)}\n`);
  });
}
