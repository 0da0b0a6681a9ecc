/**
 * What the README tells a new user before anything runs: the two commands it opens with, how to
 * install transformers.js without onnxruntime-node's download, and what `npm test` costs and
 * starts; that it stays a user's page (a line budget) and that its links, and those of docs/,
 * lead somewhere. Each claim is checked against the file it describes, so the README cannot
 * drift from them.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { createMemory, type ForgetReport } from '../src/index';
import { MemoryOptions } from '../src/memory-options';
import config from '../vite.config';

const readme = readFileSync(join(process.cwd(), 'README.md'), 'utf8');
const scripts = (JSON.parse(readFileSync(join(process.cwd(), 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;

/** Docs another branch writes; a link to one is allowed while it is missing, and checked once it exists. */
const PENDING = new Set(['docs/control.md']);

/** The docs pages, with the README: every page a reader of the repository meets. */
const PAGES = [
  'README.md',
  ...readdirSync(join(process.cwd(), 'docs'))
    .filter((file) => file.endsWith('.md'))
    .map((file) => `docs/${file}`),
];
const textOf = (page: string) => readFileSync(join(process.cwd(), page), 'utf8');
const prose = (markdown: string) => markdown.replace(/```[\s\S]*?```/g, '');

/** GitHub's anchors for a Markdown file's headings (lower case, punctuation dropped, spaces to dashes, repeats numbered). */
function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const [, heading] of markdown.replace(/```[\s\S]*?```/g, '').matchAll(/^#{1,6} (.+)$/gm)) {
    const slug = heading!
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N} _-]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count ? `${slug}-${count}` : slug);
  }
  return anchors;
}

/** The relative links `[text](target)` of a Markdown file, outside code blocks. */
function linksOf(markdown: string): string[] {
  return [...markdown.replace(/```[\s\S]*?```/g, '').matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]!).filter((target) => !/^[a-z]+:/.test(target));
}

describe('README', () => {
  it("installs transformers.js with every switch onnxruntime-node's postinstall reads to skip its download", () => {
    const install = readme.split('\n').find((line) => /npm i\b.*@huggingface\/transformers@/.test(line));
    expect(install).toBeDefined();
    const version = (JSON.parse(readFileSync(join(process.cwd(), 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }).devDependencies['@huggingface/transformers'];
    expect(install).toContain(`@huggingface/transformers@${version}`);
    // The installed onnxruntime-node (the one transformers.js pulls) names the variable it honours.
    const script = readFileSync(join(process.cwd(), 'node_modules/onnxruntime-node/script/install.js'), 'utf8');
    const honoured = [...script.matchAll(/process\.env\.(ONNXRUNTIME_NODE_INSTALL\w*)/g)].map((match) => match[1]!);
    expect(honoured.length).toBeGreaterThan(0);
    for (const name of honoured) expect(install).toContain(`${name}=skip`);
    expect(install).toContain('ONNXRUNTIME_NODE_INSTALL=skip'); // what newer onnxruntime-node releases read
  });

  it('shows openAIEmbedder without dimensions, and says when it asks the model for its vector length', () => {
    expect(readme).toMatch(/openAIEmbedder\(\{ \.\.\.endpoint, model: '[\w-]+' \}\)/);
    expect(readme).toContain('createMemory asks for one vector when it opens');
  });

  it('says how long npm test takes and that it starts a Chroma server, as the chroma project does', async () => {
    const resolved = await (typeof config === 'function' ? config({ command: 'build', mode: 'production' }) : config);
    const projects = (resolved.test?.projects ?? []) as { test?: { name?: string; globalSetup?: string[] } }[];
    const chroma = projects.find((project) => project.test?.name === 'chroma');
    expect(chroma?.test?.globalSetup).toEqual(['test/chroma/global-setup.ts']);
    expect(readFileSync(join(process.cwd(), 'test/chroma/global-setup.ts'), 'utf8')).toMatch(/chroma/i);
    const intro = readme.slice(0, readme.indexOf('\n## '));
    expect(intro).toMatch(/`npm test` takes about \d+–\d+ minutes/);
    expect(intro).toMatch(/starts a Chroma server/);
  });

  it('opens with the command that runs the demo and the one that runs every test, as package.json and CI define them', () => {
    const [, block] = /^# engram\n\n```sh\n([\s\S]*?)```/.exec(readme) ?? [];
    const commands = (block ?? '')
      .split('\n')
      .filter(Boolean)
      .map((line) => line.replace(/\s+#.*$/, ''));
    expect(commands).toEqual(['npm ci && npm run demo', 'npm ci && npm test']);
    expect(scripts.demo).toMatch(/vite build --mode demo && vite preview --mode demo/);
    expect(scripts.test).toMatch(/vitest run$/);
    expect(readFileSync(join(process.cwd(), '.ci/run'), 'utf8')).toMatch(/^npm test$/m);
  });

  it('stays a page for users of the library: 300 lines at most', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(300);
  });

  it('links only to files that exist, and to headings they have, from the README and every page of docs/', () => {
    const broken: string[] = [];
    let checked = 0;
    for (const page of PAGES) {
      for (const link of linksOf(readFileSync(join(process.cwd(), page), 'utf8'))) {
        const [path, anchor] = link.split('#') as [string, string | undefined];
        const target = path ? relative(process.cwd(), join(process.cwd(), dirname(page), path)) : page;
        checked++;
        if (!existsSync(join(process.cwd(), target))) {
          if (!PENDING.has(target)) broken.push(`${page}: ${link} (no file ${target})`);
        } else if (anchor && target.endsWith('.md') && !anchorsOf(readFileSync(join(process.cwd(), target), 'utf8')).has(anchor)) {
          broken.push(`${page}: ${link} (no heading #${anchor} in ${target})`);
        }
      }
    }
    expect(broken).toEqual([]);
    expect(checked).toBeGreaterThan(30);
  });

  it("lists every createMemory option, review included, in the README's list and in api.md's table", () => {
    const options = Object.keys(MemoryOptions.shape);
    expect(options).toContain('review');
    const [, list] = /every option is optional \(([^)]*)\)/.exec(readme) ?? [];
    const listed = [...(list ?? '').matchAll(/`(\w+)`/g)].map((match) => match[1]);
    const table = textOf('docs/api.md');
    const rows = table.slice(table.indexOf('## createMemory'), table.indexOf('## Calls'));
    const documented = [...rows.matchAll(/^\| ((?:`\w+`(?:, )?)+) \|/gm)].flatMap((match) => [...match[1]!.matchAll(/`(\w+)`/g)].map((name) => name[1]));
    expect(listed.sort()).toEqual([...options].sort());
    expect(documented.sort()).toEqual([...options].sort());
  });

  it('defines the seed where a reader of the repository can find it, and every page that speaks of it links there', () => {
    const definition = textOf('docs/architecture.md');
    expect(anchorsOf(definition).has('the-seed')).toBe(true);
    const undefinedUse: string[] = [];
    // benchmarks.md is written by the benches (its lines are their output), not by hand.
    for (const page of PAGES.filter((name) => name !== 'docs/benchmarks.md' && name !== 'docs/architecture.md')) {
      const text = prose(textOf(page));
      // "the seed", "the seed's …", "seed style": the chapter; not a random generator's seed.
      if (/\bthe seed\b|\bseed(?:'s|[ -]style| chapter| scenario)/i.test(text) && !/\]\((?:docs\/|\.\/)?architecture\.md#the-seed\)/.test(text)) undefinedUse.push(page);
    }
    expect(undefinedUse).toEqual([]);
  });

  it('cites only documents the repository holds', () => {
    const missing: string[] = [];
    for (const page of PAGES) {
      for (const [, name] of prose(textOf(page)).matchAll(/\b([\w.-]+\.md)\b/g)) {
        const found = [dirname(page), '.', 'docs', 'src'].some((folder) => existsSync(join(process.cwd(), folder, name!)));
        if (!found && !PENDING.has(`docs/${name}`)) missing.push(`${page}: ${name}`);
      }
    }
    expect(missing).toEqual([]);
  });
});

describe('README Quick start', () => {
  it("says what its forgetSource returns: the snippet's one conversation backed every memory, so all are erased and none regenerated", async () => {
    const [, snippet] = /## Quick start\n\n```ts\n([\s\S]*?)```/.exec(readme) ?? [];
    expect(snippet).toContain('memory.forgetSource(');
    // The snippet as written, on fake-indexeddb in-process (the browser's createMemory() has no IndexedDB under Node).
    const body = snippet!.replace(/^import .*$/m, '').replace('await createMemory()', 'await createMemory({ indexedDB: new IDBFactory(), IDBKeyRange, worker: "off" })');
    const run = new Function('createMemory', 'IDBFactory', 'IDBKeyRange', `return (async () => {${body}\nawait memory.close();\nreturn { operations, report };})();`) as (
      ...args: unknown[]
    ) => Promise<{ operations: { action: string }[]; report: ForgetReport }>;
    const { operations, report } = await run(createMemory, IDBFactory, IDBKeyRange);
    const comment = snippet!.slice(snippet!.indexOf('memory.forgetSource(')).split('\n')[1]!;
    expect(operations.filter((operation) => operation.action === 'CREATE').length).toBe(report.erased.length);
    expect(report.regenerated).toEqual([]);
    expect(comment.startsWith(`// → { erased: [${report.erased.map(() => "'mem_…'").join(', ')}], regenerated: [] }`)).toBe(true);
  });
});
