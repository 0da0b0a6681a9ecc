/**
 * The reader under test as a `Reader`, and the reader of an earlier revision beside it: that
 * revision's src/ (and tsconfig.json, so it compiles as this tree's does) is unpacked with
 * `git archive` into a temporary directory (nothing in the repository or its worktrees changes)
 * and its default extractor imported from there, so before and after are scored by the same
 * scorer in the same run on the same machine.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Reader } from './eval-extract-score';

const root = fileURLToPath(new URL('..', import.meta.url));

type ExtractorModule = {
  createDefaultExtractor(): { extract(messages: { role: 'user'; content: string }[], context: { userId: string; appName: string; sessionId: string; at: number }): unknown };
};

/** The default extractor of the module at `url` (a src/extract/default-extractor.ts) as a Reader. */
export async function readerOf(url: string): Promise<Reader> {
  const { createDefaultExtractor } = (await import(url)) as ExtractorModule;
  const extractor = createDefaultExtractor();
  return async (message, at) => {
    const facts = (await extractor.extract([{ role: 'user', content: message }], { userId: 'eval', appName: 'eval', sessionId: 'eval', at })) as { topic: string; content: string }[];
    return facts.map(({ topic, content }) => ({ topic, content }));
  };
}

/** This tree's reader. */
export function currentReader(): Promise<Reader> {
  return readerOf(new URL('../src/extract/default-extractor.ts', import.meta.url).href);
}

function git(args: string[]): string {
  try {
    return execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  } catch (error) {
    const failure = error as NodeJS.ErrnoException & { stderr?: string };
    if (failure.code === 'ENOENT') throw new Error('eval:extract needs git on PATH to build the "before" reader; install git, or pass --no-baseline to score this tree alone', { cause: error });
    throw new Error(`git ${args.join(' ')} failed: ${String(failure.stderr ?? failure.message).trim()}`, { cause: error });
  }
}

/** The default baseline: where this branch left main. */
export function defaultBaselineRef(): string {
  try {
    return git(['merge-base', 'HEAD', 'main']);
  } catch (error) {
    throw new Error(`no merge-base with main to measure against (${(error as Error).message}); pass --baseline <ref> or --no-baseline`, { cause: error });
  }
}

export interface Baseline {
  /** The ref as given, with its commit. */
  label: string;
  reader: Reader;
  /** The temporary directory holding the revision's src/. */
  dir: string;
  /** Removes the temporary tree; safe to call twice. */
  dispose(): void;
}

/** The reader at `ref`, from a temporary copy of that revision's src/. */
export async function baselineReader(ref: string): Promise<Baseline> {
  let commit: string;
  try {
    commit = git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
  } catch (error) {
    if ((error as Error).message.includes('needs git')) throw error;
    throw new Error(`--baseline ${ref}: no such commit in this repository`, { cause: error });
  }
  const dir = mkdtempSync(join(tmpdir(), 'engram-eval-extract-'));
  // An interrupted run removes the tree too: 'exit' does not fire on a signal's default action.
  const onSignal = (signal: NodeJS.Signals) => {
    dispose();
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  let disposed = false;
  const dispose = () => {
    if (disposed) return;
    disposed = true;
    process.off('exit', dispose).off('SIGINT', onSignal).off('SIGTERM', onSignal);
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', dispose).once('SIGINT', onSignal).once('SIGTERM', onSignal);
  try {
    const archive = execFileSync('git', ['archive', '--format=tar', commit, 'src', 'tsconfig.json'], { cwd: root, maxBuffer: 1 << 30 });
    const untar = spawnSync('tar', ['-x', '-C', dir], { input: archive });
    if (untar.error || untar.status !== 0) throw new Error(`could not unpack ${ref}'s src/ into ${dir}: ${untar.error?.message ?? String(untar.stderr).trim()}`);
    // The revision's sources resolve packages from this checkout's node_modules.
    symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
    const reader = await readerOf(pathToFileURL(join(dir, 'src/extract/default-extractor.ts')).href);
    return { label: `${ref} (${commit.slice(0, 10)})`, reader, dir, dispose };
  } catch (error) {
    dispose();
    throw error;
  }
}
