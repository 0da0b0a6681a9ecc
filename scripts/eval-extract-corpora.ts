/**
 * The labelled corpora `npm run eval:extract` scores: dev (what the reader is tuned on: the speech
 * corpus, test/extract/speech/corpus-*.ts, and any chat corpus in test/extract/dev/*.ts) and
 * validation (test/extract/validation/, held out). Each module's exported `LabelledCase` arrays
 * are read, whatever their names; a case exported twice (a part and a list of all parts) counts once.
 */
import { readdir } from 'node:fs/promises';
import type { LabelledCase } from '../test/extract/speech/corpus';
import { VALIDATION } from '../test/extract/validation/index';

export interface Corpus {
  name: string;
  /** dev: tuned on; validation: held out. */
  split: 'dev' | 'validation';
  cases: readonly LabelledCase[];
}

function isLabelledCase(value: unknown): value is LabelledCase {
  const entry = value as Partial<LabelledCase> | null;
  return typeof entry === 'object' && entry !== null && typeof entry.register === 'string' && typeof entry.message === 'string' && Array.isArray(entry.facts);
}

/** The cases exported by the modules of `dir` whose names match `pattern`, in file order; none when `dir` does not exist. */
export async function casesIn(dir: URL, pattern: RegExp): Promise<LabelledCase[]> {
  let files: string[];
  try {
    files = (await readdir(dir)).filter((file) => pattern.test(file)).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const seen = new Set<LabelledCase>();
  for (const file of files) {
    const module = (await import(new URL(file, dir).href)) as Record<string, unknown>;
    for (const value of Object.values(module)) {
      if (Array.isArray(value) && value.length > 0 && value.every(isLabelledCase)) for (const entry of value) seen.add(entry);
    }
  }
  return [...seen];
}

/** The dev corpora (the speech corpus, and the dev chat corpus when there is one) and the validation corpus. */
export async function loadCorpora(): Promise<Corpus[]> {
  const speech = await casesIn(new URL('../test/extract/speech/', import.meta.url), /^corpus-.+\.ts$/);
  const chat = await casesIn(new URL('../test/extract/dev/', import.meta.url), /^[^.]+\.ts$/);
  return [
    { name: 'dev: speech corpus (test/extract/speech)', split: 'dev', cases: speech },
    ...(chat.length ? [{ name: 'dev: chat corpus (test/extract/dev)', split: 'dev' as const, cases: chat }] : []),
    { name: 'validation: chat corpus (test/extract/validation, held out)', split: 'validation', cases: VALIDATION },
  ];
}
