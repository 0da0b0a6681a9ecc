/**
 * A real Chroma server for tests, the walkthrough and the bench: `chroma run` from the chromadb
 * package's own binary (never `npx`: killing npx leaves the server running), on a free loopback
 * port, data in a temp dir. Stopped by the server's own pid, SIGTERM first and SIGKILL after a
 * grace period; `kill()` + `restart()` keep the data dir, for the fault tests.
 *
 * Rules this code keeps: every server it starts is stopped when the process exits, also on
 * SIGINT/SIGTERM or an uncaught error (no server outlives the run); `start` fails with the
 * server's own output when it does not answer its heartbeat in time.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface ChromaServer {
  readonly host: string;
  readonly port: number;
  /** `http://host:port` */
  readonly url: string;
  readonly dataDir: string;
  /** The pid of the running server process (undefined while it is down). */
  readonly pid: number | undefined;
  /** SIGKILL, no grace: the fault tests' crash. The data dir stays. */
  kill(): Promise<void>;
  /** Starts the server again on the same port and data dir, and waits for its heartbeat. */
  restart(): Promise<void>;
  /** SIGTERM, SIGKILL after `graceMs`; then removes the data dir unless it was given. */
  stop(graceMs?: number): Promise<void>;
}

export interface StartOptions {
  /** Keep data here (kept after stop); default: a fresh temp dir, removed on stop. */
  dataDir?: string;
  /** Default: a free port picked by the OS. */
  port?: number;
  /** How long to wait for the heartbeat (ms). */
  timeoutMs?: number;
}

const BINARY = fileURLToPath(new URL('../node_modules/.bin/chroma', import.meta.url));
const HOST = '127.0.0.1';
const running = new Set<ChildProcess>();

/** Last resort: whatever is still running when this process ends is killed (synchronous, so it works in 'exit'). */
function killAllSync(): void {
  for (const child of running) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  running.clear();
}
process.once('exit', killAllSync);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    killAllSync();
    process.exit(signal === 'SIGINT' ? 130 : 143);
  });
}

/** A port the OS says is free on the loopback interface now. */
export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, HOST, () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => done(port));
    });
  });
}

async function heartbeat(url: string): Promise<boolean> {
  try {
    const response = await fetch(`${url}/api/v2/heartbeat`, { signal: AbortSignal.timeout(1_000) });
    return response.ok;
  } catch {
    return false; // not listening yet: the caller polls again
  }
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => child.once('exit', () => done()));
}

/** Spawns `chroma run` and resolves once its heartbeat answers; rejects with its output if it exits or times out first. */
async function launch(dataDir: string, port: number, timeoutMs: number): Promise<ChildProcess> {
  const child = spawn(BINARY, ['run', '--path', dataDir, '--host', HOST, '--port', String(port)], { stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const url = `http://${HOST}:${port}`;
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) break;
    if (await heartbeat(url)) return child;
    await new Promise((done) => setTimeout(done, 100));
  }
  child.kill('SIGKILL');
  await exited(child);
  running.delete(child);
  throw new Error(
    `Chroma server did not answer GET ${url}/api/v2/heartbeat within ${timeoutMs} ms (exit ${child.exitCode ?? child.signalCode ?? 'none'}). ` +
      `Check that node_modules/.bin/chroma exists (npm ci) and that the native binding loads. Its output:\n${output}`,
  );
}

/** Starts a Chroma server and waits until it answers. */
export async function startChromaServer(options: StartOptions = {}): Promise<ChromaServer> {
  const ownDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'engram-chroma-'));
  const port = options.port ?? (await freePort());
  const timeoutMs = options.timeoutMs ?? 30_000;
  let child: ChildProcess | undefined = await launch(dataDir, port, timeoutMs);

  async function end(signal: 'SIGTERM' | 'SIGKILL', graceMs: number): Promise<void> {
    const current = child;
    child = undefined;
    if (!current) return;
    current.kill(signal);
    const timer = setTimeout(() => current.kill('SIGKILL'), graceMs);
    await exited(current);
    clearTimeout(timer);
    running.delete(current);
  }

  return {
    host: HOST,
    port,
    url: `http://${HOST}:${port}`,
    dataDir,
    get pid() {
      return child?.pid;
    },
    kill: () => end('SIGKILL', 0),
    async restart() {
      await end('SIGKILL', 0);
      child = await launch(dataDir, port, timeoutMs);
    },
    async stop(graceMs = 5_000) {
      await end('SIGTERM', graceMs);
      if (ownDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
