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

  it('builds each model adapter as its own entry, none of them in the main bundle, and transformers.js neither bundled nor resolved', () => {
    for (const name of ['openai.js', 'chrome-ai.js', 'transformers.js']) expect(existsSync(join(outDir, name))).toBe(true);
    expect(entry).not.toMatch(/chat\/completions|LanguageModel\.availability/);
    const files = [...readdirSync(outDir), ...readdirSync(join(outDir, 'assets')).map((name) => join('assets', name))].filter((name) => name.endsWith('.js'));
    const code = files.map((name) => readFileSync(join(outDir, name), 'utf8'));
    // Named, never resolved: an application without the optional peer must still build.
    expect(code.some((text) => text.includes('"@huggingface/transformers"'))).toBe(true);
    expect(code.some((text) => /import\(\s*["'`]@huggingface\/transformers/.test(text))).toBe(false);
    expect(code.reduce((sum, text) => sum + text.length, 0)).toBeLessThan(400_000);
  });
});
