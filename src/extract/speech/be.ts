/**
 * "I am …" (and "I was", "I've been", "I'm not … any more"): what the complement says the user
 * is: an age, a job, a diet, allergic to something, from somewhere, married, pregnant, fluent in
 * a language, into something, going to do something. A feeling ("I'm so tired") is no fact.
 */
import type { Topic } from '../topics';
import { beWord, capitalisedLanguages, STATE_READERS, type Complement } from './be-states';
import { DIETS, FEELINGS, HABIT_VERBS, JOB_SUFFIX, JOBS, LANGUAGES, NOT_JOBS, RELIGIONS } from './lexicon';
import { draft, objectAt, placeAt, sentence, type Draft, type Reading } from './phrase';
import { bornFacts, isPlace, isVague, verbFacts } from './verb';
import type { Verbal } from './verbal';
import { isGerund } from './verbs';

const USER = 'The user';
const INTENSIFIERS = new Set([
  'so',
  'very',
  'really',
  'super',
  'totally',
  'pretty',
  'quite',
  'kinda',
  'still',
  'also',
  'now',
  'currently',
  'officially',
  'actually',
  'just',
  'definitely',
  'literally',
  'technically',
  'basically',
  'mostly',
  'fully',
  'strictly',
  'completely',
  'huge',
  'big',
  'originally',
  'realy',
  'rly',
  'practising',
  'practicing',
  'devout',
  'lapsed',
]);
/** Words that make "I'm a …" a figure of speech. */
const HYPERBOLE = new Set(['basically', 'literally', 'practically', 'virtually', 'secretly']);
/** Hedges between "I'm" and what the user is ("I'm probably going to …"). */
const HEDGES = new Set(['probably', 'maybe', 'possibly', 'perhaps', 'likely']);
/** Words after a job-like word ending in -ent/-er that show it was an adjective or a verb ("a decent cook"): the job is the next word or none. */
const AFTER_JOB = new Set(['at', 'for', 'in', 'of', 'from', 'and', 'with', 'who', 'but', 'so', 'by', 'on', ',', 'here', 'there', 'now', 'too']);

/** What a person is like: "a morning person", "a night owl", "a foodie". */
const PERSONALITY = new Set([
  'person',
  'owl',
  'bird',
  'foodie',
  'introvert',
  'extrovert',
  'ambivert',
  'homebody',
  'bookworm',
  'nerd',
  'geek',
  'perfectionist',
  'optimist',
  'pessimist',
  'workaholic',
  'adrenaline',
  'junkie',
  'fanatic',
  'buff',
  'lover',
  'enthusiast',
  'addict',
  'snob',
]);
const HOBBYIST = new Set(['keen', 'avid', 'passionate', 'amateur', 'enthusiastic', 'casual', 'hobby', 'hobbyist']);
const ADJECTIVES = new Set([
  'big',
  'huge',
  'proud',
  'new',
  'full-time',
  'part-time',
  'senior',
  'junior',
  'head',
  'lead',
  'freelance',
  'registered',
  'professional',
  'retired',
  'former',
  'trainee',
  'qualified',
  'certified',
  'software',
  'web',
  'graphic',
  'high',
  'school',
  'primary',
  'middle',
  'math',
  'maths',
  'science',
  'english',
  'music',
  'art',
  'history',
  'pe',
  'night',
  'er',
  'icu',
  'pediatric',
  'dental',
  'civil',
  'mechanical',
  'electrical',
  'data',
  'ux',
  'ui',
  'product',
  'project',
  'sales',
  'marketing',
  'social',
  'media',
  'content',
  'line',
  'sous',
  'pastry',
  'stay-at-home',
  'single',
  'first-year',
  'second-year',
  'third-year',
  'final-year',
  'grad',
  'graduate',
  'phd',
  'masters',
  'college',
  'university',
  'uni',
  'medical',
  'law',
  'nursing',
  'engineering',
  'computer',
  'family',
  'general',
  'staff',
  'research',
  'tech',
  'it',
  'self-taught',
  'aspiring',
]);

function isJob(word: string): boolean {
  return JOBS.has(word) || (JOB_SUFFIX.test(word) && !NOT_JOBS.has(word) && !DIETS.has(word) && !RELIGIONS.has(word));
}

/** Facts from the complement of "I am" at `tokens[from]`. */
export function beFacts(reading: Reading, from: number, verbal: Verbal, first: number): Draft[] {
  const { tokens } = reading;
  let i = from;
  while (i < tokens.length && (INTENSIFIERS.has(tokens[i]!.w) || HEDGES.has(tokens[i]!.w)) && !(tokens[i]!.w === 'big' && tokens[i + 1]?.w === 'fan')) i++;
  const w = tokens[i]?.w;
  if (w === undefined) return [];
  // "I'm basically a professional napper", "I'm literally a walking encyclopedia": a figure of speech, not a job.
  if ((w === 'a' || w === 'an') && tokens.slice(first, i).some((token) => HYPERBOLE.has(token.w))) return [];
  const next = tokens[i + 1]?.w;
  // Non-native "I am study economy", "I'm live in Rome": the verb after "am" is the fact.
  if (HABIT_VERBS.has(w) && !isGerund(w) && w !== 'like' && next !== undefined && verbal.tense === 'present') return verbFacts(reading, { ...verbal, be: false, at: i }, first);
  if (w === 'born') return bornFacts(reading, i + 1, first, 'was born');
  // "I was raised in Lyon": where the user is from.
  if (w === 'raised' && next === 'in' && verbal.tense === 'past' && !verbal.negated) {
    const place = placeAt(reading, i + 2);
    return place.text ? [draft('origin', sentence(USER, `was raised in ${place.text}`, undefined), 0.8, first, place.last)] : [];
  }
  if (w === 'employed' && (next === 'as' || next === 'at' || next === 'by')) {
    const object = objectAt(reading, i + 2, 8);
    const employer = next === 'as' ? '' : 'at ';
    return object.text ? [draft(next === 'as' ? 'occupation' : 'employer', sentence(USER, `${verbal.tense === 'past' ? 'worked' : 'works'} ${next === 'as' ? 'as ' : employer}${object.text}`, undefined), 0.85, first, object.last)] : [];
  }
  if (w === 'gonna' || (w === 'going' && next === 'to' && !/^\p{Lu}/u.test(tokens[i + 2]?.raw ?? '') && HABIT_VERBS.has(tokens[i + 2]?.w ?? ''))) {
    const object = objectAt(reading, w === 'gonna' ? i + 1 : i + 2);
    return object.text ? [draft('plan', sentence(USER, `${verbal.negated ? 'does not plan' : 'plans'} to ${object.text}`, object.time), 0.75, first, object.last)] : [];
  }
  if (w === 'to' && verbal.tense === 'perfect') {
    const place = placeAt(reading, i + 1);
    return place.text ? [draft('trip', sentence(USER, `${verbal.negated ? 'has never been' : 'has been'} to ${place.text}`, place.time), 0.8, first, place.last)] : [];
  }
  if (w === 'in' && verbal.tense === 'past' && isPlace(reading, i + 1) && !verbal.negated) {
    const object = objectAt(reading, i + 1, 8);
    return object.text ? [draft('trip', sentence(USER, `was in ${object.text}`, object.time), 0.7, first, object.last)] : [];
  }
  const complement: Complement = { reading, i, w, next, verbal, first };
  for (const read of STATE_READERS) {
    const found = read(complement);
    if (found !== undefined) return found;
  }
  return articleFacts(reading, i, verbal, first) ?? progressiveFacts(reading, i, verbal, first) ?? fanFacts(reading, i, verbal, first) ?? [];
}

/** "I'm a nurse", "I was a teacher", "I'm a student at MIT", "I'm a mom of two". */
function articleFacts(reading: Reading, i: number, verbal: Verbal, first: number): Draft[] | undefined {
  const { tokens } = reading;
  const typedArticle = tokens[i]!.w;
  // "a bit of a foodie", "more of an introvert"
  const softened = (typedArticle === 'a' && tokens[i + 1]?.w === 'bit' && tokens[i + 2]?.w === 'of') || (typedArticle === 'more' && tokens[i + 1]?.w === 'of') ? (typedArticle === 'a' ? 3 : 2) : 0;
  const article = ['a', 'an', 'the'].includes(tokens[i + softened]?.w ?? '');
  const personal = personalityFacts(reading, i, i + softened, verbal, first);
  if (personal) return personal;
  if (article && HOBBYIST.has(tokens[i + 1]?.w ?? '') && tokens[i + 2] !== undefined) {
    return [
      draft(
        'hobby',
        sentence(
          USER,
          `${beWord(verbal)} ${tokens
            .slice(i, i + 3)
            .map((t) => t.raw)
            .join(' ')}`,
          undefined,
        ),
        0.8,
        first,
        i + 2,
      ),
    ];
  }
  let j = article ? i + softened + 1 : i;
  while (j < tokens.length && j < i + 4 && ADJECTIVES.has(tokens[j]!.w) && !(isJob(tokens[j]!.w) && !ADJECTIVES.has(tokens[j + 1]?.w ?? '') && !isJob(tokens[j + 1]?.w ?? ''))) j++;
  // "a night-shift nurse", "a decent cook": words before the job that the adjectives do not list.
  if (article && !JOBS.has(tokens[j]?.w ?? '') && !ADJECTIVES.has(tokens[j]?.w ?? '')) {
    const job = [j + 1, j + 2, j + 3].find((k) => k < i + 7 && JOBS.has(tokens[k]?.w ?? '') && !tokens.slice(j, k).some((t) => AFTER_JOB.has(t.w)));
    if (job !== undefined) j = job;
    else if (tokens[j + 1] !== undefined && !AFTER_JOB.has(tokens[j + 1]!.w)) return undefined;
  }
  const head = tokens[j]?.w;
  if (head === undefined) return undefined;
  const words = tokens
    .slice(article ? i + 1 : i, j + 1)
    .map((t) => t.raw)
    .join(' ');
  const articleWord = article ? typedArticle : /^[aeiou]/i.test(words) ? 'an' : 'a';
  if (head === 'member' && tokens[j + 1]?.w === 'of') {
    const club = objectAt(reading, j + 2, 8);
    return club.text ? [draft('hobby', sentence(USER, `${beWord(verbal)} ${articleWord} member of ${club.text}`, undefined), 0.8, first, club.last)] : [];
  }
  if (HOBBYIST.has(tokens[i + 1]?.w ?? '') && article && j > i + 1) return [draft('hobby', sentence(USER, `${beWord(verbal)} ${articleWord} ${words}`, undefined), 0.8, first, j)];
  if (head === 'student' || head === 'freshman' || head === 'sophomore' || head === 'undergrad' || head === 'postgrad') {
    const where = ['at', 'in', 'of'].includes(tokens[j + 1]?.w ?? '') ? objectAt(reading, j + 2, 6) : undefined;
    return [draft('education', sentence(USER, `${beWord(verbal)} ${articleWord} ${words}${where?.text ? ` ${tokens[j + 1]!.w} ${where.text}` : ''}`, undefined), 0.85, first, where?.last ?? j)];
  }
  if ((head === 'mom' || head === 'mother' || head === 'dad' || head === 'father' || head === 'parent' || head === 'mum') && article) {
    const of = tokens[j + 1]?.w === 'of' ? objectAt(reading, j + 2, 4) : undefined;
    return [draft('family', sentence(USER, `${beWord(verbal)} ${articleWord} ${words}${of?.text ? ` of ${of.text}` : ''}`, undefined), 0.85, first, of?.last ?? j)];
  }
  if (!isJob(head) || (!article && !JOBS.has(head))) return undefined;
  const at = ['at', 'for', 'in', 'of'].includes(tokens[j + 1]?.w ?? '') ? objectAt(reading, j + 2, 6) : undefined;
  const where = at?.text ? ` ${tokens[j + 1]!.w} ${at.text}` : '';
  const last = at?.last ?? j;
  const origin = !at && tokens[j + 1]?.w === 'from' ? placeAt(reading, j + 2) : undefined;
  if (origin?.text && verbal.tense === 'present' && !verbal.negated) {
    return [draft('occupation', sentence(USER, `works as ${articleWord} ${words}`, undefined), 0.85, first, j), draft('origin', sentence(USER, `is from ${origin.text}`, undefined), 0.8, first, origin.last)];
  }
  if (verbal.tense === 'past' || verbal.usedTo) return [draft('work', sentence(USER, `used to work as ${articleWord} ${words}${where}`, undefined), 0.8, first, last)];
  if (verbal.negated) return [draft('occupation', sentence(USER, `does not work as ${articleWord} ${words}`, undefined), 0.8, first, last)];
  return [draft('occupation', sentence(USER, `works as ${articleWord} ${words}${where}`, undefined), 0.85, first, last)];
}

/** "I'm a morning person", "a bit of a foodie", "more of an introvert", "a night owl": what the user is like. */
function personalityFacts(reading: Reading, i: number, articleAt: number, verbal: Verbal, first: number): Draft[] | undefined {
  const { tokens } = reading;
  if (!['a', 'an'].includes(tokens[articleAt]?.w ?? '')) return undefined;
  for (let k = articleAt + 1; k <= articleAt + 3 && k < tokens.length; k++) {
    if (!PERSONALITY.has(tokens[k]!.w)) continue;
    if (tokens[k]!.w === 'lover' || tokens[k]!.w === 'enthusiast' || tokens[k]!.w === 'buff' || tokens[k]!.w === 'fanatic') {
      if (k === articleAt + 1) return undefined;
    }
    const words = tokens
      .slice(i, k + 1)
      .map((t) => t.raw)
      .join(' ');
    return [draft('preference', sentence(USER, `${beWord(verbal)} ${words}`, undefined), 0.75, first, k)];
  }
  return undefined;
}

/** "I'm learning Spanish", "I'm going to Japan next month", "I'm planning to run a marathon", "I'm working at Google". */
function progressiveFacts(reading: Reading, i: number, verbal: Verbal, first: number, as?: 'as'): Draft[] | undefined {
  const { tokens } = reading;
  const w = tokens[i]!.w;
  if (!isGerund(w) || verbal.tense === 'past') return undefined;
  const next = tokens[i + 1]?.w;
  if ((w === 'going' || w === 'planning' || w === 'hoping' || w === 'trying' || w === 'aiming' || w === 'gonna') && next === 'to') {
    const object = objectAt(reading, i + 2);
    if (!object.text) return [];
    const travel = w === 'going' && /^\p{Lu}/u.test(tokens[i + 2]?.raw ?? '');
    if (travel) return [draft('trip', sentence(USER, `${verbal.negated ? 'is not going' : 'is going'} to ${object.text}`, object.time), 0.8, first, object.last)];
    const verb = w === 'going' ? 'plans' : w === 'trying' ? 'is trying' : w === 'hoping' ? 'hopes' : w === 'aiming' ? 'aims' : 'plans';
    return [draft('plan', sentence(USER, `${verbal.negated ? `does not ${verb === 'is trying' ? 'try' : verb.replace(/s$/, '')}` : verb} to ${object.text}`, object.time), 0.75, first, object.last)];
  }
  if ((w === 'thinking' && (next === 'about' || next === 'of')) || (w === 'saving' && next === 'up')) {
    const object = objectAt(reading, i + 2);
    return object.text ? [draft('plan', sentence(USER, `is ${w} ${next} ${object.text}`, object.time), 0.7, first, object.last)] : [];
  }
  if (w === 'moving' && next === 'to') {
    const place = placeAt(reading, i + 2);
    return place.text ? [draft('plan', sentence(USER, `is moving to ${place.text}`, place.time), 0.8, first, place.last)] : [];
  }
  if (w === 'working' && next === 'like' && as === undefined) return progressiveFacts(reading, i, verbal, first, 'as');
  if (w === 'working' && (next === 'as' || next === 'at' || next === 'for' || as === 'as')) {
    const split = next === 'as' || as === 'as' ? tokens.findIndex((t, k) => k > i + 2 && (t.w === 'at' || t.w === 'in' || t.w === 'for') && /^\p{Lu}/u.test(tokens[k + 1]?.raw ?? '')) : -1;
    if (split > 0) {
      const job = tokens
        .slice(i + 2, split)
        .map((t) => t.raw)
        .join(' ');
      const employer = objectAt(reading, split + 1, 6);
      const article = /^(?:a|an|the)\s/i.test(job) ? '' : /^[aeiou]/i.test(job) ? 'an ' : 'a ';
      return [draft('occupation', `The user works as ${article}${job}.`, 0.8, first, split - 1), draft('employer', `The user works at ${employer.text}.`, 0.8, first, employer.last)];
    }
    const object = objectAt(reading, i + 2, 8);
    if (!object.text) return [];
    return [draft(next === 'as' ? 'occupation' : 'employer', sentence(USER, next === 'as' ? `works as ${object.text}` : `works ${next === 'for' ? 'for' : 'at'} ${object.text}`, undefined), 0.85, first, object.last)];
  }
  if (w === 'studying' || w === 'majoring') {
    const object = objectAt(reading, i + 1, 8);
    return object.text ? [draft('education', sentence(USER, `is ${w} ${object.text}`, undefined), 0.85, first, object.last)] : [];
  }
  if (w === 'learning' && next !== undefined) {
    const object = objectAt(reading, i + 1, 8);
    const topic: Topic = LANGUAGES.has(next) ? 'language' : 'hobby';
    return object.text ? [draft(topic, sentence(USER, `is learning ${topic === 'language' ? capitalisedLanguages(object.text) : object.text}`, object.time), 0.8, first, object.last)] : [];
  }
  const object = objectAt(reading, i + 1);
  if (verbal.negated || isVague(object.text)) return [];
  const verbWords = verbal.tense === 'perfect' ? `has been ${w}` : `is ${w}`;
  return [draft(object.future ? 'plan' : 'event', sentence(USER, `${verbWords}${object.text ? ` ${object.text}` : ''}`, object.time), 0.7, first, Math.max(object.last, i))];
}

const FEELING_OBJECT = new Set(['to', 'about', 'for', 'with']);

/**
 * "I'm so excited about the concert next week", "I'm thrilled to make a family", "I'm off to go
 * swimming": a feeling of the moment is no fact, but what it is about happened to the user.
 */
function feelingFacts(reading: Reading, i: number, verbal: Verbal, first: number): Draft[] | undefined {
  const { tokens } = reading;
  let k = i;
  while (k < i + 3 && (FEELINGS.has(tokens[k]?.w ?? '') || tokens[k]?.w === 'off' || INTENSIFIERS.has(tokens[k]?.w ?? ''))) k++;
  if (k === i || !FEELING_OBJECT.has(tokens[k]?.w ?? '') || verbal.negated) return undefined;
  const object = objectAt(reading, k + 1, 10);
  if (!object.text || object.text.split(' ').length < 2 || isVague(object.text) || /^(?:hear|see|know|say|help)\b/i.test(object.text)) return [];
  const feeling = tokens
    .slice(i, k + 1)
    .map((t) => t.raw)
    .join(' ');
  return [draft(object.future ? 'plan' : 'event', sentence(USER, `${beWord(verbal)} ${feeling} ${object.text}`, object.time), 0.6, first, object.last)];
}

/** "I'm a big fan of jazz", "I'm into rock climbing", "I'm obsessed with K-dramas", "I'm interested in history". */
function fanFacts(reading: Reading, i: number, verbal: Verbal, first: number): Draft[] | undefined {
  const { tokens } = reading;
  const w = tokens[i]!.w;
  let from: number | undefined;
  let phrase = '';
  if (w === 'into') [from, phrase] = [i + 1, 'into'];
  else if ((w === 'a' || w === 'an' || w === 'big' || w === 'huge') && tokens.slice(i, i + 4).some((t) => t.w === 'fan')) {
    const fan = tokens.findIndex((t, k) => k >= i && t.w === 'fan');
    if (tokens[fan + 1]?.w === 'of')
      [from, phrase] = [
        fan + 2,
        `${tokens
          .slice(i, fan + 1)
          .map((t) => t.w)
          .join(' ')} of`,
      ];
  } else if ((w === 'obsessed' || w === 'passionate' || w === 'interested' || w === 'crazy' || w === 'addicted' || w === 'good' || w === 'bad' || w === 'terrible') && ['with', 'about', 'in', 'at', 'to'].includes(tokens[i + 1]?.w ?? '')) {
    [from, phrase] = [i + 2, `${w} ${tokens[i + 1]!.w}`];
  }
  if (from === undefined) return feelingFacts(reading, i, verbal, first) ?? (FEELINGS.has(w) ? [] : undefined);
  const object = objectAt(reading, from, 8);
  if (!object.text) return [];
  const topic: Topic = isGerund(tokens[from]?.w ?? '') ? 'hobby' : 'preference';
  return [draft(topic, sentence(USER, `${beWord(verbal)} ${phrase} ${object.text}`, undefined), 0.8, first, object.last)];
}
