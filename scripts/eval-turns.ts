/**
 * The LoCoMo dev split as the end-to-end eval reads it: every dialog turn with its speaker,
 * session and time (the session's date plus one minute per turn), the turns LoCoMo's annotators
 * drew an observation from, and the questions of categories 1-4 with evidence, each with the
 * speaker(s) it names. Read from ../shared/data at run time, never copied.
 */
import { readFile } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
import { parseSessionDate, splitEvidence } from './eval-data';

/** One minute: the gap between two turns of a session. */
export const TURN_GAP_MS = 60_000;

export interface EvalTurn {
  /** The turn id ("D1:3"): the source id it is ingested under. */
  id: string;
  speaker: string;
  text: string;
  session: number;
  at: number;
}

export interface SpeakerQuestion {
  question: string;
  category: number;
  evidence: string[];
  /** The speakers the question names; the speaker of its first evidence turn when it names none. */
  speakers: string[];
}

export interface TurnConversation {
  id: string;
  speakers: string[];
  /** Every turn, in session order then turn order. */
  turns: EvalTurn[];
  /** Turn ids an annotator drew an observation from. */
  annotated: Set<string>;
  questions: SpeakerQuestion[];
}

type RawTurn = { speaker: string; dia_id: string; text: string };
type Raw = {
  sample_id: string;
  conversation: Record<string, unknown>;
  observation: Record<string, Record<string, [string, string | string[]][]>>;
  qa: { question: string; category: number; evidence?: string[] }[];
};

/** The speakers `question` names, in the order it names them; else the speaker of its first evidence turn that has one. */
export function speakersOf(question: string, speakers: readonly string[], turnSpeaker: ReadonlyMap<string, string>, evidence: readonly string[]): string[] {
  const lower = question.toLowerCase();
  const named = speakers
    .map((speaker) => ({ speaker, at: lower.search(new RegExp(`\\b${speaker.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`)) }))
    .filter((entry) => entry.at >= 0)
    .sort((a, b) => a.at - b.at)
    .map((entry) => entry.speaker);
  if (named.length) return named;
  const first = evidence.map((turn) => turnSpeaker.get(turn)).find((speaker) => speaker !== undefined);
  return first ? [first] : [];
}

/** The turns of a conversation, each at its session's date plus one minute per turn before it. */
export function turnsOf(conversation: Record<string, unknown>): EvalTurn[] {
  const sessions = Object.keys(conversation)
    .map((key) => Number(/^session_(\d+)$/.exec(key)?.[1]))
    .filter((n) => Number.isInteger(n))
    .sort((a, b) => a - b);
  return sessions.flatMap((session) => {
    const date = conversation[`session_${session}_date_time`];
    if (typeof date !== 'string') throw new Error(`session ${session} has turns but no date`);
    const start = parseSessionDate(date);
    return (conversation[`session_${session}`] as RawTurn[]).map((turn, i) => ({ id: turn.dia_id, speaker: turn.speaker, text: turn.text, session, at: start + i * TURN_GAP_MS }));
  });
}

function toConversation(raw: Raw): TurnConversation {
  const speakers = [String(raw.conversation['speaker_a']), String(raw.conversation['speaker_b'])];
  const turns = turnsOf(raw.conversation);
  const turnSpeaker = new Map(turns.map((turn) => [turn.id, turn.speaker]));
  const annotated = new Set<string>();
  for (const bySpeaker of Object.values(raw.observation)) {
    for (const list of Object.values(bySpeaker)) for (const [, ids] of list) for (const id of splitEvidence(Array.isArray(ids) ? ids : [ids])) annotated.add(id);
  }
  const questions: SpeakerQuestion[] = [];
  for (const qa of raw.qa) {
    if (qa.category < 1 || qa.category > 4) continue;
    const evidence = splitEvidence(qa.evidence ?? []);
    const asked = speakersOf(qa.question, speakers, turnSpeaker, evidence);
    if (asked.length && evidence.length) questions.push({ question: qa.question, category: qa.category, evidence, speakers: asked });
  }
  return { id: raw.sample_id, speakers, turns, annotated, questions };
}

/** Reads and parses the gzipped split. */
export async function loadTurns(path: string): Promise<TurnConversation[]> {
  const raw = JSON.parse(gunzipSync(await readFile(path)).toString('utf8')) as Raw[];
  return raw.map(toConversation);
}
