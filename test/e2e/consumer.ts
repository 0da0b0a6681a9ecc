/**
 * A fresh consumer project of the published package: `npm run build`, `npm pack`, then
 * `npm install` of that tarball into an empty directory, as a user would get it. Offline: the
 * runtime dependencies are packed from this repo's node_modules (same versions as the lock)
 * and installed as tarballs beside engram's, so npm never asks the registry; TypeScript is
 * this repo's compiler run against the consumer's files.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from './browser';

const run = promisify(execFile);

/** What the consumer installs besides engram: its dependencies, and fake-indexeddb for Node. */
export const CONSUMER_DEPENDENCIES = ['dexie', 'comlink', 'zod', 'fake-indexeddb'] as const;

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command to completion; resolves with its exit code and output (a non-zero exit is a result, not a throw). */
export async function command(file: string, args: readonly string[], cwd: string, timeoutMs = 60_000): Promise<CommandResult> {
  try {
    const { stdout, stderr } = await run(file, [...args], { cwd, timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: unknown; stdout?: string; stderr?: string; message: string };
    if (typeof failed.code !== 'number') throw error; // not an exit status: the command did not run
    return { code: failed.code, stdout: failed.stdout ?? '', stderr: failed.stderr ?? failed.message };
  }
}

/** `command`, but a non-zero exit throws with the output, for steps that must succeed. */
export async function mustRun(file: string, args: readonly string[], cwd: string, timeoutMs?: number): Promise<string> {
  const result = await command(file, args, cwd, timeoutMs);
  if (result.code !== 0) throw new Error(`${file} ${args.join(' ')} exited ${result.code} in ${cwd}:\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

export interface Consumer {
  /** The consumer project's root (package.json, node_modules/engram, …). */
  dir: string;
  /** The engram tarball `npm pack` produced. */
  tarball: string;
}

/**
 * Builds and packs engram, then installs the tarball into a new project under the system
 * temp directory. `--ignore-scripts` on both sides: nothing here needs an install script.
 */
export async function createConsumer(): Promise<Consumer> {
  const dir = await mkdtemp(join(tmpdir(), 'engram-consumer-'));
  // The library build and its declarations: about 10 s on a quiet machine, over a minute on a loaded one.
  await mustRun('npm', ['run', 'build', '--silent'], REPO_ROOT, 300_000);
  const before = new Set(await readdir(dir));
  const modules = CONSUMER_DEPENDENCIES.map((name) => join(REPO_ROOT, 'node_modules', name));
  await mustRun('npm', ['pack', '--silent', '--ignore-scripts', '--pack-destination', dir, REPO_ROOT, ...modules], REPO_ROOT);
  const tarballs = (await readdir(dir)).filter((name) => name.endsWith('.tgz') && !before.has(name));
  const tarball = tarballs.find((name) => name.startsWith('engram-'));
  if (!tarball || tarballs.length !== CONSUMER_DEPENDENCIES.length + 1) throw new Error(`npm pack left ${tarballs.join(', ')} in ${dir}`);
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'engram-consumer', private: true, type: 'module' }, null, 2));
  await mustRun('npm', ['install', '--offline', '--ignore-scripts', '--no-audit', '--no-fund', '--no-package-lock', ...tarballs.map((name) => `./${name}`)], dir);
  return { dir, tarball: join(dir, tarball) };
}

/** One `error TS…` line of tsc's `--pretty false` output. */
export interface Diagnostic {
  file: string;
  line: number;
  code: string;
  message: string;
}

/** Type-checks the consumer with one tsconfig and returns every error tsc reported. */
export async function typecheck(consumer: Consumer, tsconfig: string): Promise<{ diagnostics: Diagnostic[]; output: string }> {
  const tsc = join(REPO_ROOT, 'node_modules/typescript/bin/tsc');
  const result = await command(process.execPath, [tsc, '-p', tsconfig, '--pretty', 'false'], consumer.dir);
  const output = result.stdout + result.stderr;
  const diagnostics = [...output.matchAll(/^(.+?)\((\d+),\d+\): error (TS\d+): (.*)$/gm)].map((match) => ({
    file: match[1]!,
    line: Number(match[2]),
    code: match[3]!,
    message: match[4]!,
  }));
  if (result.code !== 0 && diagnostics.length === 0) throw new Error(`tsc -p ${tsconfig} failed without a diagnostic:\n${output}`);
  return { diagnostics, output };
}
