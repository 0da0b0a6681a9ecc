/**
 * Poisoning defences for the rule extractor (the seed's "Break it"). A rule match becomes a
 * memory only when it is the user's own first-person statement: not someone else's words
 * (quoted, reported, behind a speaker label), not a claim about a third party, and not part of
 * a message that carries instructions, role markers or a request to write for every user.
 *
 * Every pattern here is linear (bounded repetitions, no nested unbounded quantifiers), so
 * hostile input cannot make the extractor backtrack catastrophically.
 */

/** Signs that a message is addressed to the model or the store rather than stating a fact. */
const INSTRUCTION_PATTERNS: readonly [string, RegExp][] = [
  // Role markers and chat-template tokens: "system:", "### Assistant", "<|im_start|>", "[INST]".
  ['role marker', /^[ \t>*_-]{0,8}(?:#{1,6}[ \t]*)?(?:system|assistant|user|human|developer|tool|model|ai|bot)[ \t]*(?::|$)/im],
  ['role heading', /^[ \t]{0,8}#{1,6}[ \t]*(?:system|assistant|user|human|developer|instructions?|response)\b/im],
  ['role marker', /(?:^|[.!?][ \t]+)(?:system|assistant|developer)[ \t]*:/im],
  ['chat template token', /<\|[A-Za-z_]{1,30}\|>|\[\/?(?:INST|SYS)\]|<<\/?SYS>>/i],
  ['prompt tag', /<[ \t]{0,4}\/?[ \t]{0,4}(?:memories|system|instructions?|assistant|user|prompt|context|tool)\b[^>]{0,100}>/i],
  // Injection phrases.
  [
    'instruction override',
    /\b(?:ignore|disregard|forget|override|bypass)\b[^.!?\n]{0,60}?\b(?:instructions?|prompts?|rules|guidelines|directions|directives|programming|system)\b/i,
  ],
  ['role change', /\byou(?: are|'re) now\b|\bnew (?:system )?instructions?\b|\bsystem prompt\b|\b(?:pretend|roleplay|role-play|jailbreak)\b/i],
  // "Always recommend X" is addressed to the assistant; "I always say …" is the user talking.
  ['standing instruction', /(?<!\bi(?:'d|'ll|[ \t]+would)?[ \t]{1,4})\b(?:always|never|only)[ \t]+(?:recommend|suggest|promote|advertise|push|mention|say|tell|respond|answer|reply|output)\b/i],
  // Requests to write beyond the caller: app scope, every user, someone else's account.
  ['write for everyone', /\b(?:all|every|each|any|other)(?:[ \t]+(?:other|the))?[ \t]+(?:users?|customers?|accounts?|members)\b|\b(?:for|to|about|with)[ \t]+(?:all|every|each|other|any)[ \t]+people\b/i],
  ['write for everyone', /\bremember\b[^.!?\n]{0,40}?\b(?:everyone|everybody|globally)\b|\b(?:everyone|everybody)\b[^.!?\n]{0,40}?\bremember\b/i],
  ['scope escalation', /\b(?:app|global|application)[ -]?scope\b|\bapp[ -]wide\b|\bscope[ \t]*[:=]|\buser_?id[ \t]*[:=]|\bfor[ \t]+(?:the[ \t]+)?user[ \t]+[\w@.-]+/i],
];

/** Why a message must yield nothing (an instruction, a role marker, a scope escalation), or undefined. */
export function instructionSignal(text: string): string | undefined {
  for (const [name, pattern] of INSTRUCTION_PATTERNS) if (pattern.test(text)) return name;
  return undefined;
}

const SPEECH_VERB =
  '(?:said|says|say|saying|told|tells|tell|wrote|writes|asked|asks|claims?|claimed|thinks?|thought|believes?|believed|insists?|insisted|mentioned|mentions|replied|replies|texted|texts|swears|swore|reckons|reckoned|announced|announces)';
/** Prefix ending in a speech verb whose complement is the match: "Bob said: ", "my wife says that ". */
const SPEECH_BEFORE = new RegExp(
  `(?:^|[^\\w'])([\\w']{1,40})[ \\t]+(?:(?:also|just|already|once|always|then|have|has|had|did|does|do|keeps|kept|even|never|once)[ \\t]+){0,3}${SPEECH_VERB}` +
    `(?:[ \\t]+(?:to[ \\t]+)?(?:me|us|you|him|her|them|everyone))?(?:[ \\t]+that)?[ \\t]*[:,]?[ \\t]*["“«']?[ \\t]*$`,
  'i',
);
/** Suffix attributing the statement to someone: "…, says Bob", "…, my wife said". */
const SPEECH_AFTER = new RegExp(`^["”»']?[ \\t]*[,;:—–-][ \\t]*((?:[\\w']{1,40}[ \\t]+){0,2})${SPEECH_VERB}\\b(?:[ \\t]+([\\w']{1,40}))?`, 'i');
const ACCORDING_TO = /\baccording[ \t]+to\b[^.!?\n]{0,60}$/i;
/** A possessive in front of the match ("Sam's export keeps failing"): the fact is someone else's. */
const THIRD_PARTY_POSSESSIVE = /\b(?:his|her|their|[A-Z][a-z]{0,30}'s)[ \t]+$/;
/** "Bob: I'm vegan" at the start of a line: someone else's line pasted in. */
const SPEAKER_LABEL = /^[ \t]*([A-Za-z][\w.'-]{0,30}(?:[ \t]+[A-Za-z][\w.'-]{0,30})?)[ \t]*:/;
/** Labels people put before their own statement ("Update: I'm vegan"). */
const OWN_LABELS = new Set(['update', 'quick update', 'note', 'fyi', 'ps', 'p.s', 'p.s.', 'edit', 'also', 'btw', 'reminder', 'correction', 'context', 'background', 'heads up', 'one more thing', 'oh and', 'and']);

function isSelf(word: string | undefined): boolean {
  return word !== undefined && /^i(?:'ve|'d|'ll)?$/i.test(word.trim());
}

// Per-position quotation state of the last text looked at. Recounting the quotes before each
// match made extraction quadratic on long messages with many matches (29 s for 100 kB).
let quotedText: string | undefined;
let quotedAt: Uint8Array = new Uint8Array(0);

/** Whether position `start` of `text` sits inside an open quotation (straight quotes toggle; curly ones nest). */
function insideQuotes(text: string, start: number): boolean {
  if (quotedText !== text) {
    quotedAt = new Uint8Array(text.length + 1);
    let straight = 0;
    let depth = 0;
    for (let i = 0; i < text.length; i++) {
      quotedAt[i] = straight % 2 === 1 || depth > 0 ? 1 : 0;
      const char = text[i];
      if (char === '"') straight++;
      else if (char === '“' || char === '„' || char === '«') depth++;
      else if ((char === '”' || char === '»') && depth > 0) depth--;
    }
    quotedAt[text.length] = straight % 2 === 1 || depth > 0 ? 1 : 0;
    quotedText = text;
  }
  return quotedAt[start] === 1;
}

/** How far the line and sentence walks look: a "sentence" longer than this is not one. */
const MAX_WALK = 400;

const SENTENCE_BREAK = /[.!?\n\r]/;

/**
 * The sentence around [start, end): `[from, to)` up to the nearest . ! ? or line break on each
 * side, looking at most `maxWalk` characters each way. Unbounded, a 100 kB message without
 * sentence breaks and a match every few words made extraction quadratic (29 s for one message).
 */
export function sentenceBounds(text: string, start: number, end: number, maxWalk: number): [number, number] {
  const floor = Math.max(0, start - maxWalk);
  const ceiling = Math.min(text.length, end + maxWalk);
  let from = start;
  while (from > floor && !SENTENCE_BREAK.test(text[from - 1]!)) from--;
  let to = end;
  while (to < ceiling && !SENTENCE_BREAK.test(text[to]!)) to++;
  return [from, to];
}

/**
 * Why the match at [start, end) of `text` is not the user's own statement (quoted, reported,
 * labelled or about someone else), or undefined when it is.
 */
export function notTheUsersOwn(text: string, start: number, end: number): string | undefined {
  if (insideQuotes(text, start)) return 'quoted speech';
  const floor = Math.max(0, start - MAX_WALK);
  let lineStart = start;
  while (lineStart > floor && text[lineStart - 1] !== '\n' && text[lineStart - 1] !== '\r') lineStart--;
  const line = text.slice(lineStart, start);
  if (/^[ \t]*>/.test(line)) return 'quoted line';
  const label = SPEAKER_LABEL.exec(line);
  if (label && !OWN_LABELS.has(label[1]!.toLowerCase()) && !isSelf(label[1])) return 'speaker label';

  const [sentenceStart, sentenceEnd] = sentenceBounds(text, start, end, MAX_WALK);
  // "Bob said: I'm vegan" breaks at no sentence end, but "Bob said. I'm vegan" does not count.
  const prefix = text.slice(sentenceStart, start);
  const before = SPEECH_BEFORE.exec(prefix);
  if (before && !isSelf(before[1])) return 'reported speech';
  if (ACCORDING_TO.test(prefix)) return 'reported speech';
  if (THIRD_PARTY_POSSESSIVE.test(prefix)) return 'about someone else';

  const after = SPEECH_AFTER.exec(text.slice(end, sentenceEnd));
  if (after) {
    const words = after[1]!.trim().split(/[ \t]+/).filter(Boolean);
    const subject = words.length ? words.at(-1) : after[2];
    if (!isSelf(subject)) return 'reported speech';
  }
  return undefined;
}

const SPEECH_ANYWHERE = new RegExp(`(?:^|[^\\w'])([\\w']{1,40})?(?:[ \\t]+(?:also|just|already|always|often|have|has|had|did|do|does|never|once|even|then)){0,3}[ \\t,;:—–-]*${SPEECH_VERB}\\b(?:[ \\t]+([\\w']{1,40}))?`, 'gi');

/**
 * Whether a whole sentence passes on someone else's words anywhere in it ("…, my wife said",
 * "Bob thinks …", "according to Sam"). Stricter than {@link notTheUsersOwn}, for callers that
 * keep whole sentences (the session summary) rather than one matched span.
 */
export function reportsSomeoneElse(sentence: string): boolean {
  if (/according[ \t]+to\b/i.test(sentence)) return true;
  for (const match of sentence.matchAll(SPEECH_ANYWHERE)) {
    // The speaker is the word before the verb, or after it when the verb opens the clause (", says Bob").
    const speaker = match[1] ?? match[2];
    if (!isSelf(speaker)) return true;
  }
  return false;
}

/** Names that would make a memory claim a role or a privilege ("The user goes by System."). */
const RESERVED_NAMES = /^(?:system|assistant|admin|administrator|root|sudo|superuser|developer|dev|operator|moderator|mod|owner|user|users|everyone|everybody|all|ai|bot|model|tool|chatgpt|gpt|claude|openai|anthropic|ignore|instructions?|prompt|memories|override)/i;

export function isReservedName(name: string): boolean {
  return RESERVED_NAMES.test(name);
}

/**
 * Curly apostrophes ("I’m") are how phones type; every pattern here and in the rules is
 * written with straight ones. Same length, so match indexes still point into the original.
 */
export function normalizeApostrophes(text: string): string {
  return text.replace(/[\u2018\u2019\u02BC]/g, "'");
}
