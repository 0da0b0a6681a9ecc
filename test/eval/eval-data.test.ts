import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { EvalDataError, loadLocomo } from '../../scripts/eval-data';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'engram-eval-data-'));

describe('loadLocomo', () => {
  it('rejects with an EvalDataError that says where the data comes from and how to run the eval when the file is missing', async () => {
    const path = join(dir, 'locomo-dev.json.gz');
    const failure = loadLocomo(path);
    await expect(failure).rejects.toThrow(EvalDataError);
    await expect(failure).rejects.toThrow(`no LoCoMo data at: ${path}`);
    await expect(failure).rejects.toThrow(/\.\.\/shared\/data\/locomo-dev\.json\.gz/);
    await expect(failure).rejects.toThrow(/snap-research\/locomo/);
    await expect(failure).rejects.toThrow(/run `npm run eval` again/);
  });

  it('rejects with an EvalDataError when the file is not gzipped JSON, or not the split', async () => {
    const plain = join(dir, 'plain.json');
    writeFileSync(plain, '[]');
    await expect(loadLocomo(plain)).rejects.toThrow(/^not gzipped JSON/);
    const other = join(dir, 'other.json.gz');
    writeFileSync(other, gzipSync(JSON.stringify([{ hello: 'world' }])));
    await expect(loadLocomo(other)).rejects.toThrow(/^not the LoCoMo split/);
  });

  it('loads the five conversations of the dev split when the data is there', async () => {
    const conversations = await loadLocomo(join(process.cwd(), '../shared/data/locomo-dev.json.gz'));
    expect(conversations.map((conversation) => conversation.id)).toEqual(['conv-26', 'conv-30', 'conv-41', 'conv-42', 'conv-43']);
  });
});

describe('exitOnDataError', () => {
  it('ends the run with the message and exit code 1, without a stack, when the data is missing', async () => {
    // The eval's own entry line, in a script of its own (eval.ts itself reads the real data).
    const entry = join(dir, 'entry.mts');
    const module = pathToFileURL(join(process.cwd(), 'scripts/eval-data.ts')).href;
    writeFileSync(entry, `import { exitOnDataError, loadLocomo } from '${module}';\nawait loadLocomo(${JSON.stringify(join(dir, 'absent.json.gz'))}).catch(exitOnDataError);\n`);
    const tsx = join(process.cwd(), 'node_modules/.bin/tsx');
    const outcome = await run(tsx, [entry], { timeout: 60_000 }).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
    );
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toMatch(/^npm run eval: no LoCoMo data at: /);
    expect(outcome.stderr).not.toMatch(/ENOENT|\n\s+at /);
  });
});
