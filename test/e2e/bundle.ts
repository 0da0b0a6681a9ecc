/**
 * What a page built with engram loads, read off a consumer's production build: the entry chunk
 * with every chunk it imports statically (what the browser must fetch and run before the page's
 * script starts), the chunks loaded later by import(), and the worker, each minified and gzipped
 * as a server would send them.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

export interface ChunkSizes {
  /** Files of the entry's static import closure (entry first). */
  files: string[];
  bytes: number;
  gzip: number;
}

export interface BundleSizes {
  main: ChunkSizes;
  /** The chunks only a dynamic import() reaches (the write path, the occasional verbs, the extractor, …). */
  lazy: ChunkSizes;
  worker: ChunkSizes;
}

/** Relative static imports of a minified ES chunk: `import{…}from"./x.js"` and bare `import"./x.js"`. */
export function staticImports(code: string): string[] {
  return [...code.matchAll(/(?:^|[;}\n])\s*(?:import|export)\s*(?:[\w$*{}\s,]*?from\s*)?["']\.\/([^"']+\.js)["']/g)].map((match) => match[1]!);
}

async function sizesOf(dir: string, files: readonly string[]): Promise<ChunkSizes> {
  let bytes = 0;
  let gzip = 0;
  for (const file of files) {
    const code = await readFile(join(dir, file));
    bytes += code.length;
    gzip += gzipSync(code, { level: 9 }).length;
  }
  return { files: [...files], bytes, gzip };
}

/** `starts` and every chunk they import statically, in `assets` (starts first). */
async function staticClosure(assets: string, starts: readonly string[]): Promise<string[]> {
  const closure: string[] = [];
  const queue = [...starts];
  while (queue.length) {
    const file = queue.shift()!;
    if (closure.includes(file)) continue;
    closure.push(file);
    queue.push(...staticImports(await readFile(join(assets, file), 'utf8')));
  }
  return closure;
}

/** Sizes of a Vite build in `outDir` whose page loads `assets/<entry>`; the worker is the `worker-*.js` asset. */
export async function bundleSizes(outDir: string): Promise<BundleSizes> {
  const assets = join(outDir, 'assets');
  const html = await readFile(join(outDir, 'index.html'), 'utf8');
  const entry = /<script type="module"[^>]*src="\.?\/?assets\/([^"]+\.js)"/.exec(html)?.[1];
  if (!entry) throw new Error(`no module script in ${join(outDir, 'index.html')}`);
  const all = (await readdir(assets)).filter((name) => name.endsWith('.js'));
  const workers = all.filter((name) => /^worker-.*\.js$/.test(name));
  const closure = await staticClosure(assets, [entry]);
  const lazy = all.filter((name) => !closure.includes(name) && !workers.includes(name));
  return { main: await sizesOf(assets, closure), lazy: await sizesOf(assets, lazy), worker: await sizesOf(assets, workers) };
}

/**
 * The lazy chunks a page fetches along with `main` when `start` (a chunk's name, without its
 * hash) is imported: that chunk and its static imports not already in `main`. For the IndexedDB
 * backend's chunk (`indexeddb`), what the page loads before `createMemory` resolves.
 */
export async function lazySizes(outDir: string, main: ChunkSizes, start: string): Promise<ChunkSizes> {
  const assets = join(outDir, 'assets');
  const chunks = (await readdir(assets)).filter((name) => name.startsWith(`${start}-`) && name.endsWith('.js'));
  if (chunks.length !== 1) throw new Error(`expected one ${start}-*.js chunk in ${assets}, found ${chunks.length}: ${chunks.join(', ')}`);
  const closure = await staticClosure(assets, chunks);
  return sizesOf(
    assets,
    closure.filter((file) => !main.files.includes(file)),
  );
}

/** The files among `files` (in `outDir/assets`) whose text matches `pattern`. */
export async function filesMatching(outDir: string, files: readonly string[], pattern: RegExp): Promise<string[]> {
  const matching: string[] = [];
  for (const file of files) if (pattern.test(await readFile(join(outDir, 'assets', file), 'utf8'))) matching.push(file);
  return matching;
}

/** One line per part, for the test log and the closing note. */
export function describeSizes(sizes: BundleSizes): string {
  const kb = (n: number) => `${(n / 1000).toFixed(1)} kB`;
  return (['main', 'lazy', 'worker'] as const).map((part) => `${part}: ${kb(sizes[part].bytes)} minified, ${kb(sizes[part].gzip)} gzip (${sizes[part].files.length} files)`).join('; ');
}
