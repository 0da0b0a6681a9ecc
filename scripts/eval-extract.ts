/**
 * `npm run eval:extract`: how often the default offline extractor reads a fact from a LoCoMo
 * dev turn. Each turn is one user message of its speaker, said at its session's date plus one
 * minute per turn (the end-to-end protocol's clock). Printed: the share of the turns LoCoMo's
 * annotators drew an observation from (observation dia_ids) that yield ≥ 1 fact, the share of
 * all turns that do, facts per turn, and ms per turn. `--show N` prints N annotated turns that
 * yield nothing, and N facts read, for reading by eye. The split is read from ../shared/data,
 * never copied; the extractor was tuned on its own corpus (test/extract/speech), and this split
 * only measured (see docs/eval.md).
 */
import { readFile } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
import { speechCandidates } from '../src/extract/speech/extractor';
import { parseSessionDate, splitEvidence } from './eval-data';

const MINUTE = 60_000;
const path = new URL('../../shared/data/locomo-dev.json.gz', import.meta.url);
const showAt = process.argv.indexOf('--show');
const show = showAt > 0 ? Number(process.argv[showAt + 1] ?? 10) : 0;

type Turn = { speaker: string; dia_id: string; text: string };
type Raw = { sample_id: string; conversation: Record<string, unknown>; observation: Record<string, Record<string, [string, string | string[]][]>> };

const raw = JSON.parse(gunzipSync(await readFile(path)).toString('utf8')) as Raw[];
let turns = 0;
let yielding = 0;
let annotated = 0;
let annotatedYielding = 0;
let facts = 0;
let ms = 0;
const silent: string[] = [];
const read: string[] = [];
for (const conversation of raw) {
  const observed = new Set(Object.values(conversation.observation).flatMap((bySpeaker) => Object.values(bySpeaker).flatMap((list) => list.flatMap(([, ids]) => splitEvidence(Array.isArray(ids) ? ids : [ids])))));
  for (const [key, value] of Object.entries(conversation.conversation)) {
    const session = /^session_(\d+)$/.exec(key);
    if (!session) continue;
    const start = parseSessionDate(String(conversation.conversation[`session_${session[1]}_date_time`]));
    for (const [i, turn] of (value as Turn[]).entries()) {
      const began = performance.now();
      const found = speechCandidates(turn.text, start + i * MINUTE);
      ms += performance.now() - began;
      turns++;
      facts += found.length;
      if (found.length > 0) yielding++;
      if (observed.has(turn.dia_id)) {
        annotated++;
        if (found.length > 0) annotatedYielding++;
        else if (silent.length < show) silent.push(`${turn.dia_id} ${turn.text}`);
      }
      for (const fact of found) if (read.length < show && Math.random() < 0.1) read.push(`[${fact.topic}] ${fact.content}  ⟵ ${turn.text}`);
    }
  }
}
const pct = (n: number, d: number) => `${((100 * n) / d).toFixed(1)}%`;
console.log(`LoCoMo dev: ${raw.length} conversations, ${turns} turns, ${annotated} annotated fact turns`);
console.log(`annotated fact turns yielding ≥ 1 fact: ${annotatedYielding}/${annotated} (${pct(annotatedYielding, annotated)})`);
console.log(`all turns yielding ≥ 1 fact: ${yielding}/${turns} (${pct(yielding, turns)}); ${(facts / turns).toFixed(2)} facts per turn, ${facts} in all`);
console.log(`extraction: ${(ms / turns).toFixed(3)} ms per turn (mean, this process)`);
if (show) console.log(`\nannotated turns with no fact:\n${silent.join('\n')}\n\nfacts read (a sample):\n${read.join('\n')}`);
