/**
 * The library build: ESM entry, the worker emitted as its own file and referenced relative to
 * the entry (with Vite's default base '/' it pointed at the site root and broke for users),
 * dexie/comlink/zod left external, the worker free of zod (it only needs plain types), readable
 * output with source maps; and the declaration post-step that adds the `.js` NodeNext needs.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from 'vite';
import { rewriteDeclarations } from '../scripts/dts-extensions';

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

  it('emits the worker as one file that imports no chunk of its own, since an application copies it as an asset and follows no import', () => {
    const worker = readFileSync(join(outDir, 'assets', workerFile), 'utf8');
    expect(worker).not.toMatch(/^\s*import\b[^(]*from\s*["']/m);
    expect(worker).not.toMatch(/import\(\s*["']\.{1,2}\//);
    // The one import left is the model runtime's, of the specifier the caller names (moduleUrl).
    expect([...worker.matchAll(/\bimport\(/g)]).toHaveLength(1);
    expect(readdirSync(join(outDir, 'assets')).filter((name) => name.endsWith('.js'))).toEqual([workerFile]);
  });

  it('leaves dexie, comlink and zod to the application, and keeps zod out of the worker', () => {
    for (const name of ['dexie', 'comlink', 'zod']) expect(entry).toMatch(new RegExp(`from ["']${name}["']`));
    const worker = readFileSync(join(outDir, 'assets', workerFile), 'utf8');
    expect(worker).not.toMatch(/ZodError|safeParse/);
    // The build is not minified, so its TSDoc is in the file: the budget is for the code. (Zod,
    // the dependency this keeps out, is over 200 kB of code; the worker's own is about 150 kB,
    // 98 kB of it the speech extractor, which the worker bundles: an application's bundler copies
    // the worker as one file.)
    const code = worker.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
    expect(code.length).toBeLessThan(170_000);
    expect(worker).toMatch(/function speechCandidates\(/);
    expect(worker).not.toMatch(/import\(["']\.\/extractor/);
  });

  it('keeps function names readable and maps both files back to src/ when built', () => {
    expect(entry).toMatch(/\basync function openMemory\(/);
    expect(entry).toMatch(/\bValidationError = class extends EngramError\b/);
    expect(entry).toContain('//# sourceMappingURL=engram.js.map');
    for (const file of [join(outDir, 'engram.js.map'), join(outDir, 'assets', `${workerFile}.map`)]) {
      const map = JSON.parse(readFileSync(file, 'utf8')) as { sources: string[]; sourcesContent?: (string | null)[] };
      expect(map.sources.some((source) => /\/src\/.*\.ts$/.test(source))).toBe(true);
      expect(map.sourcesContent?.length).toBe(map.sources.length);
      expect(map.sourcesContent?.every((content) => typeof content === 'string' && content.length > 0)).toBe(true);
    }
  });

  it('builds engram/mem0 and engram/ai-sdk as their own entries that import engram instead of copying it', () => {
    // The main entry carries no adapter code, and it imports nothing but its three dependencies
    // and its own worker: the adapters add nothing to what a browser app loads.
    expect(entry).not.toMatch(/Top-level entity parameters|engramMiddleware|from ["']\.\/(mem0|ai-sdk)/);
    // Import statements only (error messages in the bundle quote `from 'fake-indexeddb'`).
    const imports = (code: string) => [...code.matchAll(/^import\b[^;]*?\bfrom\s*["']([^"']+)["']/gm)].map((match) => match[1]).sort();
    // Besides its dependencies, the entry imports only chunks of its own code ("./…"); the
    // speech extractor is one it loads lazily, on the first ingest.
    expect(imports(entry).filter((name) => !name!.startsWith('./'))).toEqual(['comlink', 'dexie', 'zod']);
    expect(entry).toMatch(/import\("\.\/extractor-[\w-]+\.js"\)/);
    expect(imports(entry).some((name) => /extractor/.test(name!))).toBe(false);
    for (const name of ['mem0.js', 'ai-sdk.js']) {
      const adapter = readFileSync(join(outDir, name), 'utf8');
      expect(imports(adapter)).toEqual(['engram']);
      expect(adapter).not.toMatch(/class \w*Dexie|ZodError/);
    }
  });
  it('builds the model adapters as their own entries on engram, and leaves transformers.js unresolved and unbundled', () => {
    expect(entry).not.toMatch(/chat\/completions|LanguageModel\.availability|dist\/transformers\.min\.js/);
    const imports = (code: string) => [...code.matchAll(/^import\b[^;]*?\bfrom\s*["']([^"']+)["']/gm)].map((match) => match[1]);
    expect(imports(readFileSync(join(outDir, 'openai.js'), 'utf8')).sort()).toEqual(['engram', 'zod']);
    expect(imports(readFileSync(join(outDir, 'chrome-ai.js'), 'utf8'))).toEqual(['engram']);
    expect(imports(readFileSync(join(outDir, 'transformers.js'), 'utf8')).filter((name) => !name!.startsWith('./'))).toEqual(['engram']);
    // engram/chroma is its own budget (the Chroma test below): this one is about transformers.js staying out.
    const files = [...readdirSync(outDir), ...readdirSync(join(outDir, 'assets')).map((name) => join('assets', name))].filter((name) => name.endsWith('.js') && name !== 'chroma.js');
    const code = files.map((name) => readFileSync(join(outDir, name), 'utf8'));
    // Named, never resolved: an application without the optional peer must still build.
    expect(code.some((text) => text.includes('"@huggingface/transformers"'))).toBe(true);
    expect(code.some((text) => /import\(\s*["'`]@huggingface\/transformers/.test(text))).toBe(false);
    // engram's own files come to ~690 kB (entry, worker with the 8-bit kernel, sealing, episodes, assemble/asOf/undo,
    // mem0 metadata, adapters,
    // and the speech extractor twice: the entry's lazy chunk for in-process compute and the
    // worker's copy); the smallest transformers.js build (transformers.web.min.js) is 470 kB
    // on its own, so bundling it by mistake crosses this budget (760 kB: the build is not
    // minified, so comments count, and the store's read path grew by a few of them).
    expect(code.reduce((sum, text) => sum + text.length, 0)).toBeLessThan(760_000);
  });
  it('builds engram/chroma as its own entry on engram, zod and the chromadb peer, and keeps Chroma out of the main entry', () => {
    const imports = (code: string) => [...code.matchAll(/^import\b[^;]*?\bfrom\s*["']([^"']+)["']/gm)].map((match) => match[1]).sort();
    const chroma = readFileSync(join(outDir, 'chroma.js'), 'utf8');
    expect(imports(chroma)).toEqual(['chromadb', 'engram', 'zod']);
    expect(chroma).toMatch(/\bfunction createChromaStorage\(/);
    expect(chroma).not.toMatch(/class \w*Dexie|class EngramError/);
    expect(chroma.length).toBeLessThan(60_000);
    // No import of chromadb and no Chroma code (a doc comment may name the entry).
    expect(entry).not.toMatch(/from ["']chromadb["']|function createChromaStorage|ChromaClient/);
  });
});

describe('rewriteDeclarations', () => {
  const dir = mkdtempSync(join(tmpdir(), 'engram-dts-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('adds .js to file imports and /index.js to folder imports when they name declaration files', () => {
    mkdirSync(join(dir, 'store'));
    writeFileSync(join(dir, 'schema.d.ts'), 'export type Id = string;\n');
    writeFileSync(join(dir, 'store/index.d.ts'), "import type { Id } from '../schema';\nexport type Row = { id: Id };\n");
    writeFileSync(
      join(dir, 'index.d.ts'),
      "export type { Id } from './schema';\nexport * from './store';\nexport declare const row: import('./store').Row;\nimport type { z } from 'zod';\nexport type Same = import('./schema.js').Id;\n",
    );
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
