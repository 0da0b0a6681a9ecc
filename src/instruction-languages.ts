/**
 * defences.ts's instruction patterns in other words and in English, German, French, Spanish,
 * Italian and Portuguese, written narrowly (a flagged turn loses every memory): "ignore"/"forget"
 * only as an imperative (a form that is nothing else, or one opening a clause: "Mi jefe ignora
 * las reglas anteriores" is a statement), only instructions qualified as earlier, a new message
 * or instructions only of the system, reply verbs only as orders (after "from now on" or opening
 * a clause with "only in …"). They read text folded by `foldForMatching`; every repetition is
 * bounded, so matching stays linear.
 */

/** Word edges for any script: `\b` knows only ASCII letters, and "précédentes" ends in one it does not. */
const START = '(?<![\\p{L}\\p{M}\\p{N}_])';
const END = '(?![\\p{L}\\p{M}\\p{N}_])';
const FILLER = "[\\p{L}\\p{M}'’-]{1,20}";
const SPACE = '[ \\t]+';

const words = (...list: string[]) => `(?:${list.join('|')})`;

/** Where an imperative stands: a clause's start, or after "please". */
const CLAUSE_START = `(?:^|[.!?;:,][ \\t]*|${START}${words('please', 'bitte', "s['’]il[ \\t]+(?:te|vous)[ \\t]+plaît", 'por[ \\t]+favor', 'per[ \\t]+favore')}[ \\t,]+)`;
/** Clause starts only ("Mi jefe ignora", "J'oublie", "Ele esquece" are statements): forms that are also an indicative. */
const OVERRIDE_AMBIGUOUS = words('ignore|disregard|forget|override|bypass|ignoriere|ignorier|missachte|ignorez|oublie|oubliez|ignora|olvida|olvide|dimentica|esquece|desconsidera|esqueça|esqueca|desconsidere');
/** Anywhere: forms that are only an imperative, or a second person's ("Meine Kinder ignorieren" is neither). */
const OVERRIDE_IMPERATIVE = words('ignorieren[ \\t]+sie|vergiss|vergessen[ \\t]+sie|missachten[ \\t]+sie|ignorad|olvidad|ignorate|dimenticate|dimentichi');
const OVERRIDE_VERB = `(?:${CLAUSE_START}${OVERRIDE_AMBIGUOUS}|${START}${OVERRIDE_IMPERATIVE})`;
const INSTRUCTIONS = words(
  'instructions?|rules|prompts?|anweisungen|instruktionen|befehle|vorgaben|regeln|systemprompt|consignes|règles|instrucciones|indicaciones|reglas|órdenes|istruzioni|regole|indicazioni|instruções|instrucoes|regras|ordens',
);
/** "Previous", "above", "original". */
const EARLIER = words(
  'previous|prior|above|earlier|preceding|original|vorherigen|vorigen|bisherigen|obigen|früheren|ursprünglichen|précédentes|antérieures|ci-dessus|initiales|anteriores|previas|precedentes|originales|precedenti|anteriori|originali|prévias|acima|originais',
);

const OVERRIDE = `${OVERRIDE_VERB}${SPACE}(?:${FILLER}${SPACE}){0,3}?(?:${EARLIER}${SPACE}(?:${FILLER}${SPACE})?${INSTRUCTIONS}|${INSTRUCTIONS}(?:${SPACE}${FILLER}){0,2}?${SPACE}${EARLIER})${END}`;

/**
 * "New system message", "Neue Systemnachricht", "nuevas instrucciones del sistema", …; not "a new
 * message from the system admin", nor a doctor's "nuove istruzioni: riposo".
 */
const NEW_SYSTEM_MESSAGE = `${START}${words('new', 'neue[rs]?', 'nouveau', 'nouvelles?', 'nuev[oa]s?', 'nuov[oa]', 'nuove', 'nov[oa]s?')}${SPACE}${words('system[ \\t-]?(?:message|nachricht|prompt)|systemnachricht|systemanweisung(?:en)?|(?:message|instructions?|consignes?)[ \\t]+(?:du[ \\t]+)?syst[eè]me|(?:mensaje|instrucciones?)[ \\t]+del[ \\t]+sistema|(?:messaggio|istruzion[ei])[ \\t]+(?:di|del)[ \\t]+sistema|(?:mensagem|instruç(?:ão|ões))[ \\t]+do[ \\t]+sistema')}${END}`;

/** "You are now …", then a role within a few words ("ai", "ia" and "mode" are not among them: "Ora sei ai primi posti?"). */
const YOU_ARE_NOW = words(
  'du[ \\t]+bist[ \\t]+(?:jetzt|nun|ab[ \\t]+sofort|ab[ \\t]+jetzt)|tu[ \\t]+es[ \\t]+(?:maintenant|désormais|dorénavant)|vous[ \\t]+êtes[ \\t]+(?:maintenant|désormais|dorénavant)|(?:ahora|ya)[ \\t]+eres|eres[ \\t]+ahora|(?:ora|adesso)[ \\t]+sei|sei[ \\t]+(?:ora|adesso)|agora[ \\t]+(?:você|voce|tu)[ \\t]+(?:é|és)|(?:você|voce)[ \\t]+agora[ \\t]+é|agora[ \\t]+és',
);
const ROLE = words(
  'assistant|assistent(?:in)?|asistente|assistente|bot|ki|modell|modèle|modelo|modello|admin|administrat\\p{L}{0,8}|root|entwickler|développeur|desarrollador|sviluppatore|desenvolvedor|uneingeschränkt\\p{L}{0,3}|unzensiert\\p{L}{0,3}|sans[ \\t]+restrictions?|sin[ \\t]+restricciones|senza[ \\t]+restrizioni|sem[ \\t]+restrições|sem[ \\t]+restricoes|personnage|personaje|personaggio|personagem',
);
const ROLE_CHANGE = `${START}${YOU_ARE_NOW}${SPACE}(?:${FILLER}${SPACE}){0,3}?${ROLE}${END}`;

const FROM_NOW_ON = words(
  `from[ \\t]+now[ \\t]+on|ab[ \\t]+(?:jetzt|sofort)|von[ \\t]+nun[ \\t]+an|à[ \\t]+partir[ \\t]+de[ \\t]+maintenant|a[ \\t]+partir[ \\t]+de[ \\t]+maintenant|désormais|dorénavant|a[ \\t]+partir[ \\t]+de[ \\t]+(?:ahora|agora)|de[ \\t]+ahora[ \\t]+en[ \\t]+adelante|desde[ \\t]+ahora|d['’]ora[ \\t]+in[ \\t]+(?:poi|avanti)|da[ \\t]+(?:ora|adesso)[ \\t]+in[ \\t]+(?:poi|avanti)|de[ \\t]+agora[ \\t]+em[ \\t]+diante|daqui[ \\t]+(?:em|pra)[ \\t]+(?:diante|frente)`,
);
/** Reply verbs that are an imperative or a second person's, and nothing else. */
const REPLY_SECOND = words('antworte|antwortest|sprich|sprichst|schreib|schreibe|schreibst|réponds|répondez|parlez|écris|écrivez|respondes|contestas|hablas|escribes|rispondi|scrivi');
/** Reply verbs that are also a third person's ("Mi hijo, desde ahora, habla solo inglés"): orders only opening a sentence. */
const REPLY_AMBIGUOUS = words('answer|respond|reply|speak|write|talk|parle|responde|responda|contesta|habla|escribe|risponda|parla|fale|fala|escreva|escreve');
/** Reply verbs opening a clause as an order, when "only in <language>" follows ("Reply only if you know …" is a request). */
const REPLY_ORDER = words('answer', 'respond', 'reply', 'antworte', 'sprich', 'réponds', 'répondez', 'rispondi', 'responda');
const ONLY = words('only|always|exclusively|just|nur|ausschließlich|immer|uniquement|seulement|toujours|exclusivement|solo|sólo|solamente|únicamente|siempre|soltanto|sempre|esclusivamente|apenas|somente|só|exclusivamente');
const SENTENCE_START = '(?:^|[.!?;:][ \\t]*)';
const ONLY_AFTER = `(?:${SPACE}${words('du', 'noch', 'me', 'mir')}){0,2}${SPACE}${ONLY}${END}`;
const STANDING = [
  `${START}${FROM_NOW_ON}[ \\t,]*(?:${words('you', 'du', 'tu', 'vous', 'usted', 'tú')}${SPACE}${words(REPLY_SECOND, REPLY_AMBIGUOUS)}|${REPLY_SECOND})${ONLY_AFTER}`,
  `${SENTENCE_START}${FROM_NOW_ON}[ \\t,]*${REPLY_AMBIGUOUS}${ONLY_AFTER}`,
  `${SENTENCE_START}${REPLY_ORDER}(?:${SPACE}${words('noch', 'me', 'mir')})?${SPACE}${ONLY}${SPACE}${words('in', 'auf', 'en', 'em')}${SPACE}\\p{L}`,
].join('|');

/** [signal name, pattern] in the order defences.ts tests them. */
export const LANGUAGE_PATTERNS: readonly [string, RegExp][] = [
  ['instruction override', new RegExp(OVERRIDE, 'imu')],
  ['role change', new RegExp(`${NEW_SYSTEM_MESSAGE}|${ROLE_CHANGE}`, 'imu')],
  ['standing instruction', new RegExp(STANDING, 'imu')],
];
