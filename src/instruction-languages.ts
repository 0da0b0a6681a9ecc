/**
 * defences.ts's instruction patterns in other words and in English, German, French, Spanish,
 * Italian and Portuguese, written narrowly (a flagged turn loses every memory): only imperative
 * forms of "ignore"/"forget", only instructions qualified as earlier, only reply verbs after
 * "from now on" or opening a clause. They read text folded by `foldForMatching`; every
 * repetition is bounded, so matching stays linear.
 */

/** Word edges for any script: `\b` knows only ASCII letters, and "précédentes" ends in one it does not. */
const START = '(?<![\\p{L}\\p{M}\\p{N}_])';
const END = '(?![\\p{L}\\p{M}\\p{N}_])';
const FILLER = "[\\p{L}\\p{M}'’-]{1,20}";
const SPACE = '[ \\t]+';

const words = (...list: string[]) => `(?:${list.join('|')})`;

/** Imperatives only: "Meine Kinder ignorieren" is not one. */
const OVERRIDE_VERB = words(
  'ignore|disregard|forget|override|bypass|ignoriere|ignorier|ignorieren[ \\t]+sie|vergiss|vergessen[ \\t]+sie|missachte|missachten[ \\t]+sie|ignorez|oublie|oubliez|ignora|ignorad|olvida|olvide|olvidad|ignorate|dimentica|dimenticate|dimentichi|esqueça|esqueca|esquece|desconsidere|desconsidera',
);
const INSTRUCTIONS = words(
  'instructions?|rules|prompts?|anweisungen|instruktionen|befehle|vorgaben|regeln|systemprompt|consignes|règles|instrucciones|indicaciones|reglas|órdenes|istruzioni|regole|indicazioni|instruções|instrucoes|regras|ordens',
);
/** "Previous", "above", "original". */
const EARLIER = words(
  'previous|prior|above|earlier|preceding|original|vorherigen|vorigen|bisherigen|obigen|früheren|ursprünglichen|précédentes|antérieures|ci-dessus|initiales|anteriores|previas|precedentes|originales|precedenti|anteriori|originali|prévias|acima|originais',
);

const OVERRIDE = `${START}${OVERRIDE_VERB}${SPACE}(?:${FILLER}${SPACE}){0,3}?(?:${EARLIER}${SPACE}(?:${FILLER}${SPACE})?${INSTRUCTIONS}|${INSTRUCTIONS}(?:${SPACE}${FILLER}){0,2}?${SPACE}${EARLIER})${END}`;

/** "New system message", "Neue Systemnachricht", …; not "a new message from the system admin". */
const NEW_SYSTEM_MESSAGE = `${START}${words('new', 'neue[rs]?', 'nouveau', 'nouvelle', 'nuevo', 'nueva', 'nuovo', 'nuova', 'nova', 'novo')}${SPACE}${words('system[ \\t-]?(?:message|nachricht|prompt)|systemnachricht|systemanweisung(?:en)?|message[ \\t]+(?:du[ \\t]+)?syst[eè]me|mensaje[ \\t]+del[ \\t]+sistema|messaggio[ \\t]+(?:di|del)[ \\t]+sistema|mensagem[ \\t]+do[ \\t]+sistema')}${END}|${START}${words('neue', 'nouvelles', 'nuevas', 'nuove', 'novas')}${SPACE}${words('anweisungen', 'instructions', 'consignes', 'instrucciones', 'istruzioni', 'instruções')}[ \\t]*:`;

/** "You are now …", then a role within a few words. */
const YOU_ARE_NOW = words(
  'du[ \\t]+bist[ \\t]+(?:jetzt|nun|ab[ \\t]+sofort|ab[ \\t]+jetzt)|tu[ \\t]+es[ \\t]+(?:maintenant|désormais|dorénavant)|vous[ \\t]+êtes[ \\t]+(?:maintenant|désormais|dorénavant)|(?:ahora|ya)[ \\t]+eres|eres[ \\t]+ahora|(?:ora|adesso)[ \\t]+sei|sei[ \\t]+(?:ora|adesso)|agora[ \\t]+(?:você|voce|tu)[ \\t]+(?:é|e|és|es)|(?:você|voce)[ \\t]+agora[ \\t]+é|agora[ \\t]+és',
);
const ROLE = words(
  'assistant|assistent(?:in)?|asistente|assistente|bot|ki|ia|ai|modell|modèle|modelo|modello|admin|administrat\\p{L}{0,8}|root|entwickler|développeur|desarrollador|sviluppatore|desenvolvedor|uneingeschränkt\\p{L}{0,3}|unzensiert\\p{L}{0,3}|sans[ \\t]+restrictions?|sin[ \\t]+restricciones|senza[ \\t]+restrizioni|sem[ \\t]+restrições|sem[ \\t]+restricoes|personnage|personaje|personaggio|personagem|modus|mode|modo',
);
const ROLE_CHANGE = `${START}${YOU_ARE_NOW}${SPACE}(?:${FILLER}${SPACE}){0,3}?${ROLE}${END}`;

const FROM_NOW_ON = words(
  `from[ \\t]+now[ \\t]+on|ab[ \\t]+(?:jetzt|sofort)|von[ \\t]+nun[ \\t]+an|à[ \\t]+partir[ \\t]+de[ \\t]+maintenant|a[ \\t]+partir[ \\t]+de[ \\t]+maintenant|désormais|dorénavant|a[ \\t]+partir[ \\t]+de[ \\t]+(?:ahora|agora)|de[ \\t]+ahora[ \\t]+en[ \\t]+adelante|desde[ \\t]+ahora|d['’]ora[ \\t]+in[ \\t]+(?:poi|avanti)|da[ \\t]+(?:ora|adesso)[ \\t]+in[ \\t]+(?:poi|avanti)|de[ \\t]+agora[ \\t]+em[ \\t]+diante|daqui[ \\t]+(?:em|pra)[ \\t]+(?:diante|frente)`,
);
const REPLY = words(
  'answer|respond|reply|speak|write|talk|antworte|antwortest|sprich|sprichst|schreib|schreibe|schreibst|réponds|répondez|parle|parlez|écris|écrivez|responde|respondes|responda|contesta|contestas|habla|hablas|escribe|escribes|rispondi|risponda|parla|scrivi|fale|fala|escreva|escreve',
);
/** Reply verbs opening a clause as an order: only forms that are not also a statement's. */
const REPLY_ORDER = words('answer', 'respond', 'reply', 'antworte', 'sprich', 'réponds', 'répondez', 'rispondi', 'responda');
const ONLY = words('only|always|exclusively|just|nur|ausschließlich|immer|uniquement|seulement|toujours|exclusivement|solo|sólo|solamente|únicamente|siempre|soltanto|sempre|esclusivamente|apenas|somente|só|exclusivamente');
const STANDING = `${START}${FROM_NOW_ON}[ \\t,]*(?:${words('you', 'du', 'tu', 'vous', 'usted', 'tú')}${SPACE})?${REPLY}(?:${SPACE}${words('du', 'noch', 'me', 'mir')}){0,2}${SPACE}${ONLY}${END}|(?:^|[.!?;:][ \\t]*)${REPLY_ORDER}(?:${SPACE}${words('noch', 'me', 'mir')})?${SPACE}${ONLY}${END}`;

/** [signal name, pattern] in the order defences.ts tests them. */
export const LANGUAGE_PATTERNS: readonly [string, RegExp][] = [
  ['instruction override', new RegExp(OVERRIDE, 'iu')],
  ['role change', new RegExp(`${NEW_SYSTEM_MESSAGE}|${ROLE_CHANGE}`, 'imu')],
  ['standing instruction', new RegExp(STANDING, 'imu')],
];
