/**
 * The library build: ESM entry, the worker emitted as its own file and referenced relative to
 * the entry (with Vite's default base '/' it pointed at the site root and broke for users),
 * dexie/comlink/zod left external, and the worker free of zod (it only needs plain types).
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from 'vite';

describe('vite build (library)', () => {
  const outDir = mkdtempSync(join(tmpdir(), 'engram-lib-'));
  let entry = '';
  let workerFile = '';

  beforeAll(async () => {
    await build({ configFile: join(process.cwd(), 'vite.config.ts'), logLevel: 'silent', build: { outDir, emptyOutDir: true } });
    entry = readFileSync(join(outDir, 'engram.js'), 'utf8');
    workerFile = readdirSync(join(outDir, 'assets')).find((name) => /^worker-.*\.js$/.test(name)) ?? '';
  }, 60_000);

  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  it('emits the worker as its own file, referenced relative to the entry', () => {
    expect(workerFile).not.toBe('');
    expect(entry).toContain(`new URL("assets/${workerFile}", import.meta.url)`);
    expect(existsSync(join(outDir, 'assets', workerFile))).toBe(true);
  });

  it('leaves dexie, comlink and zod to the application, and keeps zod out of the worker', () => {
    for (const name of ['dexie', 'comlink', 'zod']) expect(entry).toMatch(new RegExp(`from ["']${name}["']`));
    const worker = readFileSync(join(outDir, 'assets', workerFile), 'utf8');
    expect(worker).not.toMatch(/ZodError|safeParse/);
    expect(worker.length).toBeLessThan(64_000);
  });

  it('builds engram/mem0 and engram/ai-sdk as their own entries that import engram instead of copying it', () => {
    // The main entry carries no adapter code, and it imports nothing but its three dependencies
    // and its own worker: the adapters add nothing to what a browser app loads.
    expect(entry).not.toMatch(/Top-level entity parameters|engramMiddleware|from ["']\.\/(mem0|ai-sdk)/);
    // Import statements only (error messages in the bundle quote `from 'fake-indexeddb'`).
    const imports = (code: string) => [...code.matchAll(/^import\b[^;]*?\bfrom\s*["']([^"']+)["']/gm)].map((match) => match[1]).sort();
    expect(imports(entry)).toEqual(['comlink', 'dexie', 'zod']);
    for (const name of ['mem0.js', 'ai-sdk.js']) {
      const adapter = readFileSync(join(outDir, name), 'utf8');
      expect(imports(adapter)).toEqual(['engram']);
      expect(adapter).not.toMatch(/class \w*Dexie|ZodError/);
    }
  });
});
