/**
 * The LoCoMo dev split as the eval uses it: each speaker's observations (facts with the turns
 * they came from) in session order with their dates, and the questions of categories 1-4 with
 * the speaker each one is asked of. Read from ../shared/data at run time, never copied.
 */
import { readFile } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';

export interface EvalFact {
  content: string;
  /** Turn ids the fact was extracted from ("D1:3"). */
  turns: string[];
  session: number;
  at: number;
}

export interface EvalQuestion {
  question: string;
  category: number;
  /** Evidence turn ids, split where one string held several ("D8:6; D9:17"). */
  evidence: string[];
  speaker: string;
}

export interface EvalConversation {
  id: string;
  speakers: string[];
  /** Facts per speaker, in session order. */
  facts: Map<string, EvalFact[]>;
  questions: EvalQuestion[];
  /** The last session's date: when the questions are asked. */
  end: number;
}

type Raw = {
  sample_id: string;
  conversation: Record<string, unknown>;
  observation: Record<string, Record<string, [string, string | string[]][]>>;
  qa: { question: string; category: number; evidence?: string[] }[];
};

const MONTHS = 'january february march april may june july august september october november december'.split(' ');

/** "1:56 pm on 8 May, 2023" → ms since epoch (UTC). */
export function parseSessionDate(text: string): number {
  const match = /^(\d{1,2}):(\d{2})\s*(am|pm) on (\d{1,2}) (\w+),? (\d{4})$/i.exec(text.trim());
  if (!match) throw new Error(`unrecognised LoCoMo session date "${text}"`);
  const [, hour, minute, half, day, month, year] = match;
  const monthIndex = MONTHS.indexOf(month!.toLowerCase());
  if (monthIndex < 0) throw new Error(`unrecognised month in "${text}"`);
  const hours = (Number(hour) % 12) + (half!.toLowerCase() === 'pm' ? 12 : 0);
  return Date.UTC(Number(year), monthIndex, Number(day), hours, Number(minute));
}

/** Evidence strings may hold several turn ids separated by ';' or ','. */
export function splitEvidence(evidence: readonly string[]): string[] {
  return evidence
    .flatMap((item) => item.split(/[;,]/))
    .map((item) => item.trim())
    .filter((item) => /^D\d+:\d+$/.test(item));
}

/** The speaker a question names (the first named); else the speaker of its first evidence turn. */
function speakerOf(question: string, speakers: readonly string[], turnSpeaker: ReadonlyMap<string, string>, evidence: readonly string[]): string | null {
  const named = speakers
    .map((speaker) => ({ speaker, at: question.toLowerCase().indexOf(speaker.toLowerCase()) }))
    .filter((entry) => entry.at >= 0)
    .sort((a, b) => a.at - b.at);
  if (named[0]) return named[0].speaker;
  for (const turn of evidence) {
    const speaker = turnSpeaker.get(turn);
    if (speaker) return speaker;
  }
  return null;
}

function toConversation(raw: Raw): EvalConversation {
  const { conversation } = raw;
  const speakers = [String(conversation['speaker_a']), String(conversation['speaker_b'])];
  const turnSpeaker = new Map<string, string>();
  const dates = new Map<number, number>();
  for (const [key, value] of Object.entries(conversation)) {
    const session = /^session_(\d+)$/.exec(key);
    if (session) for (const turn of value as { speaker: string; dia_id: string }[]) turnSpeaker.set(turn.dia_id, turn.speaker);
    const date = /^session_(\d+)_date_time$/.exec(key);
    if (date) dates.set(Number(date[1]), parseSessionDate(String(value)));
  }
  const facts = new Map<string, EvalFact[]>(speakers.map((speaker) => [speaker, []]));
  const sessions = Object.keys(raw.observation)
    .map((key) => Number(/^session_(\d+)_observation$/.exec(key)?.[1]))
    .filter((n) => Number.isInteger(n))
    .sort((a, b) => a - b);
  for (const session of sessions) {
    const at = dates.get(session);
    if (at === undefined) throw new Error(`${raw.sample_id}: session ${session} has observations but no date`);
    for (const [speaker, list] of Object.entries(raw.observation[`session_${session}_observation`]!)) {
      const own = facts.get(speaker) ?? [];
      facts.set(speaker, own);
      for (const [content, turns] of list) own.push({ content, turns: splitEvidence(Array.isArray(turns) ? turns : [turns]), session, at });
    }
  }
  const questions: EvalQuestion[] = [];
  for (const qa of raw.qa) {
    if (qa.category < 1 || qa.category > 4) continue;
    const evidence = splitEvidence(qa.evidence ?? []);
    const speaker = speakerOf(qa.question, speakers, turnSpeaker, evidence);
    if (speaker && evidence.length) questions.push({ question: qa.question, category: qa.category, evidence, speaker });
  }
  return { id: raw.sample_id, speakers, facts, questions, end: Math.max(...dates.values()) };
}

/** Where the split comes from and how to run the eval: what a user needs when it is missing or unreadable. */
const DATA_HELP = [
  "The eval reads the LoCoMo dev split (five of LoCoMo-10's conversations: conv-26, conv-30, conv-41, conv-42, conv-43),",
  "gzipped JSON in the layout of snap-research/locomo's data/locomo10.json, from ../shared/data/locomo-dev.json.gz beside this",
  'repository (its README there describes it). It is evaluation data (CC BY-NC 4.0) and never part of the repository or the package.',
  'Put the file there (or take those five conversations from locomo10.json and gzip them), then run `npm run eval` again.',
].join('\n');

/** The eval's data is missing or is not the LoCoMo split: the message says where it comes from and how to run the eval. */
export class EvalDataError extends Error {
  override name = 'EvalDataError';
  readonly path: string;
  constructor(path: string, problem: string, options?: { cause?: unknown }) {
    super(`${problem}: ${path}\n${DATA_HELP}`, options);
    this.path = path;
  }
}

/** Reads and parses the gzipped split. @throws EvalDataError when the file is missing, unreadable, or not the split. */
export async function loadLocomo(path: string): Promise<EvalConversation[]> {
  const bytes = await readFile(path).catch((error: unknown) => {
    const missing = (error as { code?: unknown }).code === 'ENOENT';
    throw new EvalDataError(path, missing ? 'no LoCoMo data at' : `cannot read the LoCoMo data (${(error as Error).message})`, { cause: error });
  });
  let raw: unknown;
  try {
    raw = JSON.parse(gunzipSync(bytes).toString('utf8'));
  } catch (error) {
    throw new EvalDataError(path, `not gzipped JSON (${(error as Error).message})`, { cause: error });
  }
  if (!Array.isArray(raw) || raw.some((item) => typeof item !== 'object' || item === null || !('conversation' in item) || !('observation' in item) || !('qa' in item))) {
    throw new EvalDataError(path, 'not the LoCoMo split (expected an array of { conversation, observation, qa })');
  }
  return (raw as Raw[]).map(toConversation);
}

/** For the eval's entry: an EvalDataError ends the run with its message (no stack: it says all there is), anything else is rethrown. */
export function exitOnDataError(error: unknown): never {
  if (!(error instanceof EvalDataError)) throw error;
  console.error(`npm run eval: ${error.message}`);
  process.exit(1);
}
