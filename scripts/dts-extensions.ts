/**
 * Post-build step for the emitted declarations: `tsc` copies the sources' extensionless
 * relative imports (`from './schema'`) into `dist/types`, which `moduleResolution: NodeNext`
 * and `Node16` cannot resolve, so there every engram type silently became `any`. This rewrites
 * each relative specifier to the file it names (`./schema.js`, `./dir/index.js`), which every
 * resolution mode accepts. Usage: `tsx scripts/dts-extensions.ts dist/types`.
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// `from '…'`, `import '…'`, `import('…')` (inline type imports that tsc emits) with a relative specifier.
const RELATIVE_SPECIFIER = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])(\.\.?\/[^'"]*|\.\.?)\2/g;
const HAS_EXTENSION = /\.(?:js|mjs|cjs|json)$/;

/** The specifier with the extension NodeNext needs, or an Error naming what is missing. */
export function withExtension(specifier: string, fromFile: string): string {
  if (HAS_EXTENSION.test(specifier)) return specifier;
  const target = resolve(dirname(fromFile), specifier);
  if (existsSync(`${target}.d.ts`)) return `${specifier}.js`;
  if (existsSync(join(target, 'index.d.ts'))) return `${specifier.replace(/\/$/, '')}/index.js`;
  throw new Error(`${fromFile}: the import '${specifier}' names no declaration file (looked for ${target}.d.ts and ${target}/index.d.ts); run tsc -p tsconfig.build.json first`);
}

/** Rewrites one declaration file's text; pure apart from the existence checks. */
export function rewriteDeclaration(text: string, fromFile: string): string {
  return text.replace(RELATIVE_SPECIFIER, (_match, lead: string, quote: string, specifier: string) => `${lead}${quote}${withExtension(specifier, fromFile)}${quote}`);
}

function declarationFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return declarationFiles(path);
    return path.endsWith('.d.ts') ? [path] : [];
  });
}

/** Rewrites every `.d.ts` under `dir` in place; returns how many files changed. */
export function rewriteDeclarations(dir: string): number {
  let changed = 0;
  for (const file of declarationFiles(dir)) {
    const text = readFileSync(file, 'utf8');
    const rewritten = rewriteDeclaration(text, file);
    if (rewritten !== text) {
      writeFileSync(file, rewritten);
      changed++;
    }
  }
  return changed;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2];
  if (!dir || !existsSync(dir)) {
    console.error(`dts-extensions: no declaration directory '${dir ?? ''}'; usage: tsx scripts/dts-extensions.ts dist/types`);
    process.exit(1);
  }
  console.log(`dts-extensions: ${rewriteDeclarations(dir)} declaration files now import with .js extensions`);
}
