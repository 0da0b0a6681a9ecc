/**
 * The import rules of .dependency-cruiser.cjs (`npm run lint:imports`) hold on the tree and
 * catch what they are for: run on a copy of src/, as it is and with a type-only cycle and a
 * stage importing the IndexedDB backend added.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
const CLI = join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');

interface Violation {
  from: string;
  to: string;
  rule: { name: string; severity: string };
}

/** The violations depcruise reports for `dir`'s src/ with the repository's rules. */
async function cruise(dir: string): Promise<Violation[]> {
  const args = [CLI, 'src', '--config', join(ROOT, '.dependency-cruiser.cjs'), '--output-type', 'json'];
  // Exit code 1 means error-level violations: the JSON on stdout is what is checked either way.
  const { stdout } = await promisify(execFile)(process.execPath, args, { cwd: dir, maxBuffer: 64 * 1024 * 1024 }).catch((error: { stdout?: string }) => {
    if (typeof error.stdout === 'string' && error.stdout.startsWith('{')) return { stdout: error.stdout };
    throw error;
  });
  return (JSON.parse(stdout) as { summary: { violations: Violation[] } }).summary.violations;
}

const errors = (violations: readonly Violation[]) => violations.filter((violation) => violation.rule.severity === 'error');

describe('import rules', () => {
  let copy: string;

  beforeAll(() => {
    copy = mkdtempSync(join(tmpdir(), 'engram-imports-'));
    cpSync(join(ROOT, 'src'), join(copy, 'src'), { recursive: true });
    cpSync(join(ROOT, 'tsconfig.json'), join(copy, 'tsconfig.json'));
    symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'), 'dir');
  });

  afterAll(() => rmSync(copy, { recursive: true, force: true }));

  it('finds no violation on the tree', { timeout: 180_000 }, async () => {
    expect(await cruise(copy)).toEqual([]);
  });

  it('fails on a cycle of type imports, on a stage importing store/ and on durability/ importing it', { timeout: 180_000 }, async () => {
    writeFileSync(join(copy, 'src/zz-cycle-a.ts'), "import type { B } from './zz-cycle-b';\nexport type A = B[];\n");
    writeFileSync(join(copy, 'src/zz-cycle-b.ts'), "import type { A } from './zz-cycle-a';\nexport interface B { a: A }\n");
    writeFileSync(join(copy, 'src/retrieve/zz-reads-store.ts'), "import type { EngramDatabase } from '../store/database';\nexport type Db = EngramDatabase;\n");
    writeFileSync(join(copy, 'src/durability/zz-reads-store.ts'), "import type { EngramDatabase } from '../store/database';\nexport type Db = EngramDatabase;\n");
    const found = errors(await cruise(copy)).map((violation) => [violation.rule.name, violation.from, violation.to]);
    expect(found).toEqual(
      expect.arrayContaining([
        ['no-cycles', 'src/zz-cycle-a.ts', 'src/zz-cycle-b.ts'],
        ['stages-use-storage', 'src/retrieve/zz-reads-store.ts', 'src/store/database.ts'],
        ['options-know-no-backend', 'src/durability/zz-reads-store.ts', 'src/store/database.ts'],
      ]),
    );
  });
});
