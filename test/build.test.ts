/**
 * The library build: ESM entry, the worker emitted as its own file and referenced relative to
 * the entry (with Vite's default base '/' it pointed at the site root and broke for users),
 * dexie/comlink/zod left external, the worker free of zod (it only needs plain types), readable
 * output with source maps; and the declaration post-step that adds the `.js` NodeNext needs.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from 'vite';
import { rewriteDeclarations } from '../scripts/dts-extensions';

describe('vite build (library)', () => {
  const outDir = mkdtempSync(join(tmpdir(), 'engram-lib-'));
  let workerFile = '';

  beforeAll(async () => {
    await build({ configFile: join(process.cwd(), 'vite.config.ts'), logLevel: 'silent', build: { outDir, emptyOutDir: true } });
    workerFile = readdirSync(join(outDir, 'assets')).find((name) => /^worker-.*\.js$/.test(name)) ?? '';
  }, 120_000);

  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  const read = (file: string) => readFileSync(join(outDir, file), 'utf8');
  /** Static import and re-export statements only (error messages in the bundle quote `from 'fake-indexeddb'`). */
  const staticSpecifiers = (code: string) => [...code.matchAll(/^(?:import|export)\b[^;]*?\bfrom\s*["']([^"']+)["']/gm)].map((match) => match[1]!);
  const dynamicSpecifiers = (code: string) => [...code.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g)].map((match) => match[1]!);
  /**
   * The files `file` loads, itself included: modules are kept one file each (preserveModules),
   * so a consumer's bundler splits them as it would the sources. `lazy` follows import() too.
   */
  function closure(file: string, lazy: boolean): { files: string[]; bare: string[] } {
    const files: string[] = [];
    const bare = new Set<string>();
    const queue = [file];
    while (queue.length) {
      const next = queue.shift()!;
      if (files.includes(next)) continue;
      files.push(next);
      const code = read(next);
      for (const specifier of [...staticSpecifiers(code), ...(lazy ? dynamicSpecifiers(code) : [])]) {
        if (specifier.startsWith('.')) queue.push(join(dirname(next), specifier));
        else bare.add(specifier);
      }
    }
    return { files, bare: [...bare].sort() };
  }

  it('emits the worker as its own file, referenced relative to the module that starts it', () => {
    expect(workerFile).not.toBe('');
    expect(read('worker/client.js')).toContain(`new URL("../assets/${workerFile}", import.meta.url)`);
    expect(existsSync(join(outDir, 'assets', workerFile))).toBe(true);
  });

  it('emits the worker as one file that imports no chunk of its own, since an application copies it as an asset and follows no import', () => {
    const worker = read(join('assets', workerFile));
    expect(worker).not.toMatch(/^\s*import\b[^(]*from\s*["']/m);
    expect(worker).not.toMatch(/import\(\s*["']\.{1,2}\//);
    // The one import left is the model runtime's, of the specifier the caller names (moduleUrl).
    expect([...worker.matchAll(/\bimport\(/g)]).toHaveLength(1);
    expect(readdirSync(join(outDir, 'assets')).filter((name) => name.endsWith('.js'))).toEqual([workerFile]);
  });

  it('leaves dexie, comlink and zod to the application, and keeps zod and the extractor out of the minified worker', () => {
    // Across everything the entry loads, now or later (the write path, the occasional verbs, the extractor, …).
    expect(closure('engram.js', true).bare).toEqual(['comlink', 'dexie', 'zod/mini']);
    const worker = read(join('assets', workerFile));
    expect(worker).not.toMatch(/ZodError|safeParse/);
    // Minified (an application's bundler copies it as it is): the kernel, partitions, scans and
    // the hash embedder, and the by-dimension code columns of the sparse scan (about 1.6 kB,
    // and about 1.6 kB more for the kernel's column transpose and paired sparse dots, base64:
    // 48.3 kB in all), and the semantic channel's table parser and query expansion (about 1.7 kB:
    // 49.99 kB; its table is a file of its own, fetched by the client, not inlined), and one
    // token cache per owner (about 0.15 kB: 50.13 kB), and the table parser's one pass over
    // character codes into typed arrays (about 0.8 kB: 50.94 kB; two to four times as fast as
    // the regular-expression reading, on a cold start's path, docs/perf.md), which the binary
    // table replaced: compute takes views of its arrays, with no parse (50.63 kB), after checking
    // them: lengths, link ranges, byte order, a truncated header (about 1 kB: 51.64 kB). The speech
    // extractor runs on the calling thread, a module of its own.
    expect(worker.length).toBeLessThan(51_800);
    expect(worker).not.toMatch(/speechCandidates/);
    expect(read('extract/speech/extractor.js')).toMatch(/function speechCandidates\(/);
  });

  it('keeps function names readable and maps the modules and the worker back to src/ when built', () => {
    expect(read('memory.js')).toMatch(/\basync function openMemory\(/);
    expect(read('errors.js')).toMatch(/\bValidationError = class extends EngramError\b/);
    // The minified worker keeps its functions' names for stack traces.
    expect(read(join('assets', workerFile))).toMatch(/\bfunction scanPartition\(/);
    // The entry only re-exports (no code of its own to map); the modules carry their maps.
    expect(read('memory.js')).toContain('//# sourceMappingURL=memory.js.map');
    for (const file of ['memory.js.map', 'store/store.js.map', join('assets', `${workerFile}.map`)]) {
      const map = JSON.parse(read(file)) as { sources: string[]; sourcesContent?: (string | null)[] };
      expect(map.sources.some((source) => /\/src\/.*\.ts$/.test(source))).toBe(true);
      expect(map.sourcesContent?.length).toBe(map.sources.length);
      expect(map.sourcesContent?.every((content) => typeof content === 'string' && content.length > 0)).toBe(true);
    }
  });

  it('loads the IndexedDB backend, the write path, the occasional verbs, the extractor and in-process compute only by import()', () => {
    const now = closure('engram.js', false).files;
    const later = closure('engram.js', true).files;
    // (A module the entry re-exports a name of, such as forget/erasure-plan.js's REDACTED, is in
    // the static graph here; a consumer's bundler drops what the page does not import.)
    for (const file of ['store/indexeddb.js', 'store/database.js', 'verbs/writes.js', 'verbs/occasional.js', 'extract/speech/extractor.js', 'worker/compute.js', 'consolidate/consolidate.js', 'transfer/import.js', 'undo/undo.js']) {
      expect(now, file).not.toContain(file);
      expect(later, file).toContain(file);
    }
  });

  it('builds each adapter as its own entry on engram and its peer, sharing none of engram’s modules', () => {
    const expected: Record<string, string[]> = {
      mem0: ['engram'],
      'ai-sdk': ['engram'],
      openai: ['engram', 'zod/mini'],
      'chrome-ai': ['engram'],
      transformers: ['engram'],
      chroma: ['chromadb', 'engram', 'zod/mini'],
    };
    const own = new Set(closure('engram.js', true).files);
    // Stateless compute code an adapter may share with the main entry besides the model runtime
    // (below): for Chroma's held vectors, the scan kernel (matrix, its by-dimension code columns,
    // WASM kernel and its bytes, code layout), and the erasure channel both backends announce on.
    // None of it holds module state or reaches the records layer.
    const shared: Record<string, string[]> = {
      chroma: ['worker/matrix.js', 'worker/columns.js', 'worker/wasm-kernel.js', 'worker/code-layout.js', 'worker/kernel-wasm.js', 'storage/erasure-channel.js'],
    };
    for (const [name, bare] of Object.entries(expected)) {
      const { files, bare: imported } = closure(`${name}.js`, true);
      expect(imported, name).toEqual(bare);
      // The adapter's files are its entry and its own folder (the model runtime, worker/model-runtime.js, is also the worker's), and the shared compute code above.
      expect(
        files.filter((file) => own.has(file) && file !== 'worker/model-runtime.js' && !(shared[name] ?? []).includes(file)),
        name,
      ).toEqual([]);
      expect(files.map(read).join('\n'), name).not.toMatch(/class \w*Dexie|class EngramError|ZodError/);
    }
    // The main entry carries no adapter code.
    expect([...own].filter((file) => file.startsWith('adapters/'))).toEqual([]);
    expect([...own].map(read).join('\n')).not.toMatch(/Top-level entity parameters|engramMiddleware|chat\/completions|LanguageModel\.availability|function createChromaStorage|ChromaClient/);
    expect(read('chroma.js') + closure('chroma.js', true).files.map(read).join('\n')).toMatch(/\bfunction createChromaStorage\(/);
  });

  it('leaves transformers.js unresolved and unbundled, and keeps engram’s files within budget', () => {
    const files = [...closure('engram.js', true).files, ...Object.keys({ mem0: 1, 'ai-sdk': 1, openai: 1, 'chrome-ai': 1, transformers: 1 }).flatMap((name) => closure(`${name}.js`, true).files), join('assets', workerFile)];
    const code = [...new Set(files)].map(read);
    // Named, never resolved: an application without the optional peer must still build.
    expect(code.some((text) => text.includes('"@huggingface/transformers"'))).toBe(true);
    expect(code.some((text) => /import\(\s*["'`]@huggingface\/transformers/.test(text))).toBe(false);
    // engram's own files, unminified with their TSDoc, come to about 1,014 kB (the speech
    // reader's topic model, src/extract/speech/topic-model.ts, is 30 kB of it; the semantic
    // channel, the episode filter and the one-hit selection about 60 kB more; partitioned
    // erasure, erasing verbs on a full disk, the working set's sparse rows, the slot rule and the
    // standing profile about 22 kB more; the policy's indexed sweep, erasure without replay of a
    // source that only restated, approved turn links and the reader's denial and animals about
    // 32 kB more; the episode noise rules for orders, hypotheticals and instructions to the memory,
    // and the one-hit rule by provenance, about 8 kB more; the reader's hedges of certainty and the
    // binary table's checks, and the noise rules' narrowing after review, about 9 kB more); the smallest
    // transformers.js build (transformers.web.min.js) is 470 kB on its own, so bundling it by
    // mistake crosses this budget by far.
    expect(code.reduce((sum, text) => sum + text.length, 0)).toBeLessThan(1_072_000);
  });
});

describe('rewriteDeclarations', () => {
  const dir = mkdtempSync(join(tmpdir(), 'engram-dts-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('adds .js to file imports and /index.js to folder imports when they name declaration files', () => {
    mkdirSync(join(dir, 'store'));
    writeFileSync(join(dir, 'schema.d.ts'), 'export type Id = string;\n');
    writeFileSync(join(dir, 'store/index.d.ts'), "import type { Id } from '../schema';\nexport type Row = { id: Id };\n");
    writeFileSync(join(dir, 'index.d.ts'), "export type { Id } from './schema';\nexport * from './store';\nexport declare const row: import('./store').Row;\nimport type { z } from 'zod';\nexport type Same = import('./schema.js').Id;\n");
    expect(rewriteDeclarations(dir)).toBe(2);
    expect(readFileSync(join(dir, 'index.d.ts'), 'utf8')).toBe(
      "export type { Id } from './schema.js';\nexport * from './store/index.js';\nexport declare const row: import('./store/index.js').Row;\nimport type { z } from 'zod';\nexport type Same = import('./schema.js').Id;\n",
    );
    expect(readFileSync(join(dir, 'store/index.d.ts'), 'utf8')).toContain("from '../schema.js'");
    expect(rewriteDeclarations(dir)).toBe(0);
  });

  it('throws naming the file and the import when an import names no declaration file', () => {
    writeFileSync(join(dir, 'broken.d.ts'), "export * from './missing';\n");
    expect(() => rewriteDeclarations(dir)).toThrow(/broken\.d\.ts: the import '\.\/missing' names no declaration file/);
  });
});
