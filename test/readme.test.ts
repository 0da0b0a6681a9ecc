/**
 * What the README tells a new user before anything runs: how to install transformers.js without
 * onnxruntime-node's download, and what `npm test` costs and starts. Each claim is checked
 * against the file it describes, so the README cannot drift from them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import config from '../vite.config';

const readme = readFileSync(join(process.cwd(), 'README.md'), 'utf8');

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
});
