/**
 * What of a user turn is personal content, and what is small talk: the rule that decides which
 * turns are kept as episodes. A sentence is personal when it is a statement (not a question),
 * speaks in the first person ("I", "my", "we", chat spellings "im", "ive" too) as the user's own
 * words, and is not one of the conversational moves that say nothing about the user: greetings,
 * thanks, "how are you" and its answers, reactions to what the other side said ("I'm so happy
 * for you", "I agree", "me too"), and requests to the assistant ("please …", "tell me …").
 *
 * The patterns are anchored and bounded (no nested unbounded quantifiers): linear on any input.
 */
import { normalizeApostrophes, ownStatementCheck, reportsSomeoneElse } from '../defences';

/** A sentence: up to and including its end punctuation, or to a line break. */
const SENTENCE = /[^.!?\n\r\u2028\u2029]+[.!?]*/g;

/** The user speaking of themselves (or their household): "I", "I'm", "my", "me", "we", "our", "us", "mine", "myself", and chat spellings. */
const FIRST_PERSON = /(?<![\p{L}\p{N}_'])(?:i|i'm|i've|i'd|i'll|im|ive|me|my|mine|myself|we|we're|we've|we'd|we'll|our|ours|ourselves|us)(?![\p{L}\p{N}_'])/giu;

/** Openers that carry nothing: stripped from the front of a sentence before it is judged. */
const OPENER =
  /^(?:(?:hi|hey|hello|hiya|yo|oh|ooh|wow|anyway|anyways|btw|whoa|aw+|yeah|yep|yes|yup|no|nope|nah|ok|okay|sure|well|so|haha|hah|lol|omg|ah|um|hmm|totally|absolutely|definitely|exactly|true|right|great|cool|nice|awesome|amazing|thanks|thank you|thx|ty|dear|good morning|good evening|good night|night night|alright|perfect|got it|gotcha|understood|noted|fair enough|roger(?: that)?|k|kk|bye|ttyl|appreciate it|(?:many|big) thanks|thanks(?: (?:so|very) much| a (?:lot|ton|bunch|million)| heaps)?|thank (?:you|u)(?: (?:so|very) much| kindly)?)\b[\s,!.:;-]*)+/i;

/** Whole sentences that are conversational moves: greetings, farewells, thanks, how-are-you and its answers, approval. */
const MOVE =
  /^(?:(?:good|nice|great|lovely) (?:to (?:see|hear from|meet|talk to|chat with) you|seeing you|talking to you|chatting)|(?:it's |it is )?(?:good|great|nice) to (?:see|hear|chat|talk)|(?:see|talk to|catch) (?:you|ya) (?:soon|later|around|tomorrow|then)|take care|bye|goodbye|cheers|have a (?:good|great|nice|lovely) (?:one|day|night|evening|weekend|time)|(?:(?:many|big) )?(?:thanks|thank you|thank u)\b|(?:i'm|im|i am) (?:(?:so|really|very|pretty|doing|just|all|quite) )*(?:fine|good|ok|okay|great|well|alright|all right|not bad|grand)\b|(?:i'm|im|i am) (?:(?:so|really|very|super|truly|just) )*(?:happy|glad|proud|sorry|thrilled|excited|stoked|impressed|amazed|jealous|pleased|here|rooting) (?:for|of|about|to hear|to see|that you|you|with you)\b|(?:(?:gotta|got to|have to|need to|must) (?:go|run|dash|head out|sign off)|signing off(?: now)?|peace out|that's all(?: for (?:now|today|tonight))?|(?:that )?makes sense|(?:that|this|it) works|sounds (?:fine|great|good|perfect)|me too|same here|same|i agree|i see|i know|i understand|i bet|i hope so|i think so|i guess so|i feel you|i hear you|i get it|i get you|i can imagine|i can tell|i can see that|i love that|i like that|i love it|i like it|i love this|i appreciate (?:it|that|you|this)|i'm with you|count me in|sounds good|let me know|(?:that |it |this )?means (?:a lot|so much|the world)|never ?mind|nvm|ignore (?:that|this|me)|scratch that|forget (?:it|that)|maybe (?:one day|some ?day|next time|later|another time)|(?:ok |okay )?one more (?:q|question|thing)|time (?:to|for)(?: [\p{L}'-]+){1,5}|asking for (?:a friend|[\p{L}'-]+))(?:[\s!.:)(\p{Extended_Pictographic}]|\uFE0F)*$)/iu;

/** A request to the assistant: an imperative addressed to it, or "I want/need you to …". */
const REQUEST =
  /^(?:please\b(?![\s,]+(?:call me|note|be aware|know)\b)|(?:can|could|would|will) (?:you|u|ya)\b|(?:tell|give|show|help|remind|send|write|find|get|make|book|suggest|recommend|explain|translate|summari[sz]e|list|draft|plan) (?:me|us)\b|(?:i|we) (?:want|need|would like|'d like) you to\b|let me know\b|let's\b)/i;

/**
 * A reaction to what the other side said: "That's awesome!", "Sounds like fun", "What a great
 * idea", "So cool": a judgement word in a short sentence about "that"/"it"/"this".
 */
const REACTION =
  /^(?:(?:that|this|it|which|thats|dats)(?:'s| is| was| sounds| looks| seems)?|(?:the|that|this) [\p{L}-]{2,20}(?: [\p{L}-]{2,20})? (?:sounds|looks|seems)|what an?|how|so|sounds|looks|seems|such an?)\b[^,;:]{0,40}?\b(?:awesome|great|amazing|cool|nice|lovely|sweet|wonderful|fantastic|incredible|beautiful|cute|fun|exciting|inspiring|impressive|brilliant|perfect|good|interesting|special|tough|rough|hard|sad|crazy|wild|huge|neat|rad|adorable|gorgeous|stunning|fascinating|scary|intense|unreal|insane|epic|legit|important|key|true)\b(?: (?:idea|shout|call|plan|choice|option|suggestion|pick|explanation|answer|one|point))?(?: (?:tbh|lol|haha|honestly|ngl|imo|though|tho))?(?:,[ \t]*\p{Lu}[\p{L}\p{M}'-]{0,30})?[\s!.]*$/iu;

/**
 * A question without its "?": a wh-word not followed by the user's own subject ("what should I
 * cook", but "What I love is hiking" and "Where I grew up, …" are statements), an auxiliary put
 * before its subject ("is it safe", "do you think"), or an open call for answers ("any idea why …").
 */
const QUESTION = new RegExp(
  [
    "^(?:what|which|who|whom|whose|why|how|where|when|whats|wats|hows|wheres|whos|whys|whens)(?:'s|'re|'d)?\\b(?![\\s,]+(?:i|i'm|i've|i'd|we|we're|we've|my|our|me|us)\\b)",
    "^(?:is|are|am|does|can|could|would|will|should|shall|may|might|isn't|aren't|doesn't|can't|won't|wouldn't|shouldn't)\\s+(?:i|you|it|there|this|that|these|those|they|he|she|we|anyone|anybody|someone|somebody|the|a|an|my|your|our|his|her|their)\\b",
    "^(?:do|did|was|were|have|has|had|don't|didn't|wasn't|weren't|haven't|hasn't)\\s+(?:i|you|there|this|that|they|he|she|we|anyone|anybody|someone|somebody)\\b",
    '^(?:any|anyone|anybody|someone|somebody)\\s+(?:idea|ideas|tips|thoughts|advice|suggestions|recommendations|clue|knows?|got|have)\\b',
    '^i (?:wonder|was wondering) (?:if|whether|what|how|why|where|when|who|which)\\b',
  ].join('|'),
  'i',
);

/** Verbs an imperative addressed to the assistant opens with ("recommend a podcast", "explain it simply"). */
const ASKING_VERB =
  "recommend|suggest|write|find|explain|give|tell|show|list|compare|summari[sz]e|translate|draft|book|describe|pick|choose|generate|create|calculate|convert|search|look up|teach|brainstorm|outline|define|rank|proofread|rewrite|rephrase|paraphrase|shorten|name(?!'s)";
/** What the user asks to be given ("I need a recipe for …", "I'm looking for a good thriller"), not what they need in life. */
const ASKED_FOR =
  'recipes?|recommendations?|suggestions?|ideas?|tips|advice|names?|list|summary|playlist|books?|novels?|thrillers?|podcasts?|movies?|films?|shows?|songs?|restaurants?|hotels?|flights?|gifts?|quotes?|jokes?|poems?|story|stories|translation|templates?|examples?|outline|draft|email|letter|reads?|places? to (?:eat|stay|visit)';
const ASKING = new RegExp(
  `^(?:(?:${ASKING_VERB})\\s|(?:i|we) (?:need|want|would like|'d like)(?: to (?:get|find|see))? (?:a|an|some|any|the)(?:\\s+[\\w'-]+){0,2}?\\s+(?:${ASKED_FOR})\\b|(?:i'm|im|i am|we're|we are) (?:looking|searching) for (?:a|an|some|any|the)?(?:\\s*[\\w'-]+){0,2}?\\s+(?:${ASKED_FOR})\\b)`,
  'i',
);

/** Advice judged: "The museum is a good idea", "that would be a great shout". */
const ADVICE_JUDGED =
  /^(?:(?:the|that|this) [\p{L}-]{2,20}(?: [\p{L}-]{2,20})?|that|this|it) (?:is|was|would be|'s) (?:a |an )?(?:(?:really|very|great|good|nice|brilliant|lovely|fun|smart|solid) ){1,2}(?:idea|shout|call|plan|choice|option|suggestion|pick)[\s!.]*$/iu;

/** A request closed by "pls" with no first person in it: "recipe for salmon that isnt boring pls" ("I'm vegetarian, so no meat please" tells something). */
const PLEASE_CLOSED = /\b(?:pls|plz|please)[\s!.]*$/i;
const SAYS_I = new RegExp(FIRST_PERSON.source, 'iu');

/** What may come before an order without changing it: "from now on", "in future", "always", "please". */
const ORDER_LEAD = '(?:(?:from now on|going forward|in (?:the )?future|henceforth|for (?:all )?(?:future|later) (?:chats|conversations|replies|answers|reference))[\\s,:]+)?(?:(?:always|never|please|pls|plz|just|also)\\s+)*';
/**
 * An order to the assistant: "you" with a verb of obligation ("you must treat me as …", "u should
 * always …"), or a verb of how to answer opening the sentence ("be firm but polite", "keep it
 * short", "answer in French", "use metric units", "don't mention my ex"). Not a verb chat style
 * opens a statement with when it drops the "I" ("dont like olives", "never liked it", DROPPED_I),
 * nor "use" before anything but a way of answering ("Use a wheelchair since the accident").
 */
const ORDER_LEAD_RE = new RegExp(`^${ORDER_LEAD}`, 'i');
const ORDER = new RegExp(
  `^${ORDER_LEAD}(?:(?:you|u|ya)\\s+(?:must|should|will|need to|have to|are to|shall|can't|cannot|may not)\\b|(?:be|keep (?:it|things|answers?|replies|responses|your|them|the (?:answers?|replies|responses|tone))|make it|make sure|answer|reply|respond|address|refer to|speak|sign|format|sound|say|word|phrase|start with|use (?:only |more |less |fewer |no |simple |plain |short )?(?:metric|imperial|british|american|us|uk|simple|plain|bullet|bullets|emojis?|emoticons|markdown|headings|headers|tables?|lists?|examples?|formal|casual|informal|sentences|words|language|english|celsius|fahrenheit|code|lowercase|caps|a (?:formal|casual|friendly|neutral|professional|warm) tone)|(?:don't|dont|do not|never) (?:tell|mention|say|use|call|bring up|ask|share|remind|forget|include|add))\\b)`,
  'i',
);
/**
 * A verb that orders the assistant about its answers, or opens the user's own news without "I":
 * "avoid jargon" orders, "Keep forgetting to take my insulin at lunch" tells. An order unless the
 * clause holds the user's own "I"/"my" or, after "keep", a verb in -ing.
 */
const ORDER_OR_NEWS = new RegExp(`^${ORDER_LEAD}(?:keep(?! (?:on )?\\p{L}{2,}ing\\b)|treat|stop|avoid|include|mention|add|remove|write|end|open)\\b`, 'iu');
const SAYS_I_MY = /(?<![\p{L}\p{N}_'])(?:i|i'm|im|i've|ive|i'd|my|mine|myself)(?![\p{L}\p{N}_'])/iu;

/** Whether one clause (already apostrophe-normalised, opener stripped or not) is a request or an order to the assistant. */
function clauseIsTask(text: string): boolean {
  const clause = text.trim();
  const body = clause.replace(OPENER, '').trim();
  return [clause, body].some((text) => text.length > 0 && (REQUEST.test(text) || isOrder(text) || ASKING.test(text) || (PLEASE_CLOSED.test(text) && !SAYS_I.test(text))));
}

/** Whether `clause` is an order with nothing after it: "be gentle, I have anxiety" orders and tells, and its second part is judged on its own. */
function isOrder(clause: string): boolean {
  if (/[,;]/.test(clause.replace(ORDER_LEAD_RE, ''))) return false;
  return ORDER.test(clause) || (ORDER_OR_NEWS.test(clause) && !SAYS_I_MY.test(clause));
}

/** Whether one clause (already apostrophe-normalised, opener stripped or not) is a move, a reaction, a request, an order or a question. */
function clauseIsMove(text: string): boolean {
  const clause = text.trim();
  const body = clause.replace(OPENER, '').trim();
  if (body.length === 0) return true;
  return clauseIsTask(clause) || [clause, body].some((text) => MOVE.test(text) || REACTION.test(text) || ADVICE_JUDGED.test(text) || QUESTION.test(text));
}

/** Whether `sentence` (already apostrophe-normalised) is, or opens with, a request or an order to the assistant. */
function isTask(sentence: string): boolean {
  if (MEMORY_LEAD.test(sentence)) return false;
  return clauseIsTask(sentence) || clauseIsTask(sentence.replace(ORDER_LEAD_RE, '').split(/[,;]/)[0]!);
}

/**
 * A statement of the user's own handed to the memory: "please remember that I am vegetarian",
 * "keep in mind im allergic to shellfish", "fyi my name is Ana". The lead asks nothing of the
 * assistant but to keep what follows, so what follows is judged as said; a lead before anything
 * but the user's first person ("remember to buy milk", "note for your memory: this user …") is
 * not stripped (a note planted for the memory is framed.ts's).
 */
const MEMORY_LEAD =
  /^(?:(?:please|pls|plz|and|also|oh|btw|ok|okay)[\s,]+)*(?:remember|note|keep in mind|just so you know|fyi|for (?:future )?reference|for the record)(?:\s+(?:that|this))?[\s,:-]+(?=(?:i|i'm|im|i've|ive|my|we|we're|our)\b)/i;

/**
 * A hypothetical: "if I were a cat I would sleep all day", "if i won the lottery id buy a boat",
 * "suppose I lived in Norway, …": a condition that is not so, and what would follow. "If I have
 * time I go climbing" is a habit (no "would").
 */
const HYPOTHETICAL =
  /^(?:(?:and|but|so|lol|haha|honestly)[\s,]+)?(?:if|suppose|supposing|imagine if|what if)\s+(?:i|we)\s+(?:were|was|had|won|could|lived|became|ever)\b[^.!?\n]{0,120}?(?<![\p{L}\p{N}_'])(?:would|wud|i'd|id|we'd|could|might)(?![\p{L}\p{N}_'])/iu;

/** Something of the user's own named in a sentence ("my job at Tesco", "our kids"): a fact a hypothetical may state ("If I won the lottery I would quit my job at Tesco"). */
const POSSESSED = /(?<![\p{L}\p{N}_'])(?:my|our)\s+\p{L}/iu;

/**
 * Whether `sentence` (already apostrophe-normalised) is a conversational move, a reaction, a
 * request or a question, not personal content: as a whole, or every comma-separated part of it
 * ("Thanks so much, that was really helpful!", "Gotta go, bye!").
 */
function isMove(sentence: string): boolean {
  if (HYPOTHETICAL.test(sentence) && !POSSESSED.test(sentence)) return true;
  const said = sentence.replace(MEMORY_LEAD, '');
  return clauseIsMove(said) || said.replace(ORDER_LEAD_RE, '').split(/[,;]/).every(clauseIsMove);
}

/** Chat style drops the "I": "Been busy volunteering", "Just started yoga", "Gonna move in June", "Planning a trip". */
const DROPPED_I =
  /^(?:(?:probably|prob|maybe|def|definitely|soon)\s+(?:moving|starting|leaving|quitting|changing|going|getting)\b|new\s+(?:job|house|flat|apartment|car|baby|puppy|kitten|role|position|gig|place|partner|boyfriend|girlfriend)\b|just|still|finally|recently|also|really|totally|actually|currently|been|was|went|got|had|have|gonna|going|planning|thinking|hoping|trying|working|heading|getting|taking|spent|started|finished|made|bought|tried|visited|saw|watched|read|took|learned|joined|moved|ran|love|loved|loving|liked|hate|hated|miss|missed|can't wait|cannot wait|wish|need|want|feel|felt|feeling)\b/i;

/** Chat style drops the "I" before a verb in -ing too: "Training for the Boston marathon in April", "Moving to Leeds in May" (not "Something for …", "During the …"). */
const DROPPED_I_DOING =
  /^(?!(?:some|no|any|every)?thing\b|during\b|morning\b|evening\b|spring\b|string\b|wedding\b|building\b|ceiling\b|pudding\b|setting\b|clothing\b|king\b|ring\b|wing\b)\p{L}{3,}ing\s+(?:for|to|at|in|on|with|a|an|the|my|our|some|up|out|back|again|every|since)\b/iu;

/** Whether `sentence` is the user's own news told without "I" ("Just got a new puppy named Max"): it counts as their first person. */
function dropsI(sentence: string): boolean {
  const body = sentence.replace(OPENER, '').trim();
  return DROPPED_I.test(body) || DROPPED_I_DOING.test(body);
}

/** The listener named as the subject or object: "You'd be a great counselor", "Your empathy will help", "Make sure yours stands out". */
const SECOND_PERSON = /(?<![\p{L}\p{N}_'])(?:you|you're|you've|you'd|you'll|your|yours|yourself|ya|u|ur)(?![\p{L}\p{N}_'])/iu;

/**
 * A verb that makes a short sentence a statement ("biscuit knocked over a plant", "hana wants a
 * party", "the view is lovely"): a form of be, have, do, a modal, a contraction, a past in -ed, or
 * a common verb of news. A short English run without one ("prob the bus tbh", "90s rock mostly")
 * or a list of names ("foo fighters, weezer") is an answer fragment, not news. From SENTENCE_WORDS
 * words on, a sentence counts without one.
 */
const FINITE_VERB =
  /(?<![\p{L}\p{N}_'])(?:split|quit|sold|put|cut|hurt|lent|sent|spent|built|bought|caught|taught|thought|brought|fought|found|held|met|paid|stood|wrote|ate|drank|drove|flew|grew|rode|sang|sat|slept|spoke|swam|threw|wore|became|began|chose|fell|forgot|hid|meant|shut|struck|stuck|tore|woke|is|are|was|were|am|be|been|has|have|had|does|did|will|would|can|could|should|may|might|must|gonna|wanna|got|gets|goes|went|came|comes|made|makes|says|said|took|takes|saw|knew|ran|runs|won|lost|left|felt|feels|told|bought|thinks|wants|loves|likes|hates|needs|lives|works|keeps|kept|breaks|broke|fails|crashes|starts|stops|stays|moves|seems|gives|gave|[\p{L}]{2,}ed|[\p{L}]+n't|[\p{L}]+'(?:s|re|ll|ve|d))(?![\p{L}\p{N}_])/iu;
const SENTENCE_WORDS = 6;
/** Function words that tell a short run is English (not "in", "a", "come": words of other languages too). */
const ENGLISH_WORD = /(?<![\p{L}\p{N}_'])(?:the|of|for|and|but|not|to|with|on|at|from|mostly|lots|some|just|really|tbh|lol|btw|prob|probably|maybe|stuff|kinda|pretty|very|too|so)(?![\p{L}\p{N}_'])/iu;

/** Text pasted to be worked on, not said: inline code in backticks, an arrow function, a line of code ending in a brace or a semicolon. */
const PASTED = /`|=>|[{};]\s*$/u;

/**
 * A statement about the user's world without the word "I": what happened, who was there, what
 * something was ("The kids loved it!", "It was Matt Patterson"). Told to an assistant, that is
 * the user's life; told about the listener ("you", "your") it is a reply, not the user's news.
 */
function isStatementOfTheirWorld(sentence: string): boolean {
  const body = sentence.replace(OPENER, '').trim();
  if (SECOND_PERSON.test(body) || PASTED.test(body)) return false;
  const words = body.split(/\s+/).length;
  if (DROPPED_I.test(body)) return true;
  if (words < 3) return false;
  // A longer run counts without a verb: a self-description drops it ("Allergic to peanuts and
  // shellfish since childhood.", "Software engineer at a startup in Berlin.").
  if (words >= SENTENCE_WORDS || FINITE_VERB.test(body)) return true;
  // Short and without a verb: an English answer fragment, or a list of names, is not news; a
  // sentence of another language ("Ich arbeite als Ärztin") is not judged by English verbs.
  return !(ENGLISH_WORD.test(body) || body.split(',').every((part) => part.trim().split(/\s+/).length <= 2));
}

/** Verdicts that make a whole line someone else's, whichever of its words they fall on. */
const SOMEONE_ELSES_LINE = new Set(['speaker label', 'quoted line']);

/**
 * Whether the sentence at `start` speaks in the user's own first person: some first-person word
 * is the user's (not quoted, not reported: "Bob said: I'm vegan" is Bob's), and none is on
 * someone else's line ("My wife: I'm vegan" is the wife's).
 */
function ownFirstPerson(sentence: string, start: number, notOwn: (start: number, end: number) => string | undefined): boolean | undefined {
  let own: boolean | undefined;
  for (const person of sentence.matchAll(FIRST_PERSON)) {
    const at = start + person.index;
    const verdict = notOwn(at, at + person[0].length);
    if (verdict === undefined) own = true;
    else if (SOMEONE_ELSES_LINE.has(verdict)) return false;
    else own ??= false;
  }
  return own;
}

/**
 * The sentences of `text` that are personal content, as [start, end) offsets into it, in order.
 * `text` is the user's turn as typed; the checks read an apostrophe-normalised copy of the same length.
 */
export function* personalSentences(text: string): Generator<[number, number]> {
  const normal = normalizeApostrophes(text);
  const notOwn = ownStatementCheck(normal);
  /** Each personal sentence, and whether it is only the user's world (no first person of theirs, no request in it): held until the turn shows whether it is a task's material. */
  const found: { at: [number, number]; material: boolean }[] = [];
  let task = false;
  let own = false;
  for (const match of normal.matchAll(SENTENCE)) {
    const sentence = match[0].trim();
    if (sentence.length === 0) continue;
    const asks = isTask(sentence);
    task ||= asks;
    const start = match.index + match[0].indexOf(sentence);
    if (sentence.endsWith('?') || isMove(sentence)) {
      // The user's own first person in a question ("Can you help me train my dog?") says the turn is theirs.
      own ||= ownFirstPerson(sentence, start, notOwn) === true;
      continue;
    }
    // The first person must be the user's own words (not quoted, not behind someone else's
    // speaker label), and someone else's words anywhere in the sentence ("…, says Bob", "my
    // doctor thinks …") make it theirs, as the session summary reads it: stricter than a fact's span check.
    const firstPerson = ownFirstPerson(sentence, start, notOwn);
    if (firstPerson === false || reportsSomeoneElse(sentence)) continue;
    if (firstPerson === undefined && !isStatementOfTheirWorld(sentence)) continue;
    // News told without "I" ("Just got a new puppy named Max") is the user's own first person.
    const theirs = firstPerson === true || dropsI(sentence);
    own ||= theirs;
    // The reason given with a request in one breath ("never suggest bread recipes, coeliac") is the user's own.
    found.push({ at: [start, start + sentence.length], material: !theirs && !asks });
  }
  // A turn that asks the assistant for something and says nothing in the user's own first person
  // hands over material for the task ("its been broken 2 weeks, no hot water. be firm but
  // polite"): its statements are the letter's, not the user's news. Said beside the user's own
  // words, or with no request, they are the user's world ("The kids loved it!").
  const materialOnly = task && !own;
  for (const sentence of found) if (!(materialOnly && sentence.material)) yield sentence.at;
}

/** Whether a user turn holds personal content (at least one personal sentence), rather than small talk only. */
export function isPersonal(text: string): boolean {
  return !personalSentences(text).next().done;
}
