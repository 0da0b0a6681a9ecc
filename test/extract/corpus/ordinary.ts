/**
 * The false-positive corpus (invariant 14): ordinary first-person messages, each with the exact
 * memory contents the rule extractor must yield for it. Every message states at least one fact
 * in a form one of the five seed rules reads; the poisoning defences must leave each one alone.
 * Registers: casual, formal, texting (lower case, no punctuation), long and rambling,
 * non-native English, emoji, curly apostrophes, and names from many cultures and scripts.
 */

export interface CorpusCase {
  /** Where the message comes from, for the figures a failing case prints. */
  register: string;
  message: string;
  /** The caller's active memories afterwards (contents, any order). */
  expected: readonly string[];
}

export const diet = (kind: 'vegetarian' | 'vegan' | 'pescatarian') => `The user follows a ${kind} diet.`;
export const eats = (food: 'fish' | 'meat' | 'dairy') => `The user eats ${food} again.`;
export const seat = (where: 'window' | 'aisle' | 'middle') => `The user prefers ${where} seating on flights.`;
export const goesBy = (name: string) => `The user goes by ${name}.`;
export const ISSUE = 'The user reported a failing export/upload.';

/** Corpus entries of one register from `[message, ...expected contents]` rows. */
export const cases = (register: string, entries: readonly (readonly [string, ...string[]])[]): CorpusCase[] => entries.map(([message, ...expected]) => ({ register, message, expected }));

export const ORDINARY: readonly CorpusCase[] = [
  // The statements issue 8 found dropped: a name that merely starts like a reserved word, and
  // sentences that only brushed an instruction or write-for-everyone pattern.
  ...cases('issue 8', [
    ['Please call me Aisha.', goesBy('Aisha')],
    ['Please call me Aiden.', goesBy('Aiden')],
    ['Please call me Devon.', goesBy('Devon')],
    ['Please call me Devika.', goesBy('Devika')],
    ['Please call me Allison.', goesBy('Allison')],
    ['Please call me Claudette.', goesBy('Claudette')],
    ['Please call me Modesto.', goesBy('Modesto')],
    ['Please call me Botond.', goesBy('Botond')],
    ["Unlike the other members of my family, I'm vegetarian.", diet('vegetarian')],
    ["Unlike the rest of my family, I'm vegetarian.", diet('vegetarian')],
    ["I'm vegan. You always tell me the best places", diet('vegan')],
    ['Call me Zoë.', goesBy('Zoë')],
    ['Call me José.', goesBy('José')],
    ['Call me Ångström.', goesBy('Ångström')],
    ['Call me 李雷.', goesBy('李雷')],
  ]),
  ...cases('names', [
    ['Hi, call me Łukasz.', goesBy('Łukasz')],
    ['Call me Søren, please.', goesBy('Søren')],
    ["Call me O'Brien, everyone does.", goesBy("O'Brien")],
    ['Call me O’Brien, everyone does.', goesBy('O’Brien')],
    ['Call me Jean-Luc.', goesBy('Jean-Luc')],
    ["Just call me Ngozi, it's shorter.", goesBy('Ngozi')],
    ['Call me Siobhán.', goesBy('Siobhán')],
    ['Call me Björn!', goesBy('Björn')],
    ['Call me Ayşe.', goesBy('Ayşe')],
    ['Call me Çağlar.', goesBy('Çağlar')],
    ['Call me Đorđe.', goesBy('Đorđe')],
    ['Call me Þórunn.', goesBy('Þórunn')],
    ['Call me Nguyễn.', goesBy('Nguyễn')],
    // Zoë typed with a combining diaeresis (e + U+0308): stored exactly as typed.
    ['Call me Zoe\u0308.', goesBy('Zoe\u0308')],
    ['Call me Oluwaseun.', goesBy('Oluwaseun')],
    ['Call me Kwame.', goesBy('Kwame')],
    ['Call me Priya.', goesBy('Priya')],
    ['Call me Hiroshi.', goesBy('Hiroshi')],
    ['Call me さくら.', goesBy('さくら')],
    ['Call me 김민준.', goesBy('김민준')],
    ['Call me Αλέξανδρος.', goesBy('Αλέξανδρος')],
    ['Call me Дмитрий.', goesBy('Дмитрий')],
    ['Call me Саша.', goesBy('Саша')],
    ['Call me محمد.', goesBy('محمد')],
    ['Call me דוד.', goesBy('דוד')],
    ['Call me अर्जुन.', goesBy('अर्जुन')],
    ['Call me สมชาย.', goesBy('สมชาย')],
    ["Call me Ng'ang'a.", goesBy("Ng'ang'a")],
    ['Call me Mary-Kate.', goesBy('Mary-Kate')],
    ['Call me Alla.', goesBy('Alla')],
    ['Call me Rootes.', goesBy('Rootes')],
    ['Call me Sudoku.', goesBy('Sudoku')],
    ['Call me Moderato.', goesBy('Moderato')],
    ['Call me Userkaf.', goesBy('Userkaf')],
  ]),
  ...cases('casual', [
    ["Hi! I'm vegetarian, so keep that in mind for any meal bookings. Call me Ada.", diet('vegetarian'), goesBy('Ada')],
    ["As I said before, I'm a vegetarian.", diet('vegetarian')],
    ["Quick update: I've started eating fish again.", eats('fish')],
    ['For flights, I prefer the aisle seat.', seat('aisle')],
    ['Our export keeps failing since Monday.', ISSUE],
    ["I told you I'm vegan.", diet('vegan')],
    ["I always say I'm vegan.", diet('vegan')],
    ['I prefer the window seat because my wife says it is quieter.', seat('window')],
    ['Ignore the typo above, call me Ada.', goesBy('Ada')],
    ['Ignore my last message, I prefer the aisle seat.', seat('aisle')],
    ["Since you asked, I'm vegetarian.", diet('vegetarian')],
    ["I'm vegetarian, since you asked.", diet('vegetarian')],
    ['My operating system: Linux. The sync keeps failing.', ISSUE],
    ['As mentioned, I prefer the aisle seat.', seat('aisle')],
    ['That said, I prefer the window seat.', seat('window')],
    ["Truth be told, I'm vegan.", diet('vegan')],
    ["I'm vegan - just saying.", diet('vegan')],
    ["I'm vegetarian, my doctor thinks it's healthy.", diet('vegetarian')],
    ['Forget it, the sync keeps failing.', ISSUE],
    ["I ignore most diet rules but I'm vegetarian.", diet('vegetarian')],
    ["I pretend to like steak at work dinners but I'm vegetarian.", diet('vegetarian')],
    ['Compared to other users I travel a lot. I prefer the aisle seat.', seat('aisle')],
    ["I cook for other people all the time but I'm vegan.", diet('vegan')],
    ["Remember, everyone in my family eats meat, but I'm pescatarian.", diet('pescatarian')],
    ["Everyone says I'm stubborn. Anyway, I'm vegan.", diet('vegan')],
    ["My kids love to roleplay dinosaurs. I'm vegetarian, they are not.", diet('vegetarian')],
    ["You're now my favourite travel app! I prefer the window seat.", seat('window')],
    ['The new instructions on the visa form confused me. I want an aisle seat.', seat('aisle')],
    ['I signed up for user research last week and the upload keeps failing.', ISSUE],
    ["Like my mum always says, eat your greens. I'm vegetarian.", diet('vegetarian')],
    ['Never mind the dates, I want a middle seat.', seat('middle')],
    ["You asked about my diet: I'm pescatarian.", diet('pescatarian')],
  ]),
  ...cases('formal', [
    ['Good afternoon. For my upcoming journey to Vienna, I prefer the window seat. Kind regards.', seat('window')],
    ["Dear team, I'm writing to let you know that I have started eating meat again after many years.", eats('meat')],
    ['To whom it may concern: our export keeps failing whenever the report exceeds ten pages.', ISSUE],
    ['I would be grateful if you could note that I am travelling often this year; I want the aisle seat whenever possible.', seat('aisle')],
    ["Please note, for the avoidance of doubt, that I'm a pescatarian.", diet('pescatarian')],
    ['Re: booking 44721 — I prefer a middle seat so that I can sit between my children.', seat('middle')],
    ['Subject: name on the account. Please call me Chidi from now on.', goesBy('Chidi')],
    ['Having reviewed the itinerary, I prefer the aisle seat on both legs.', seat('aisle')],
    ["Following my physician's advice, I've gone back to eating dairy.", eats('dairy')],
    ['Regarding the integration: the nightly sync times out every night at 02:00 UTC.', ISSUE],
    ['Device: Pixel 7. Browser: Chrome. The export keeps failing on large files.', ISSUE],
  ]),
  ...cases('texting', [
    ['im vegan', diet('vegan')],
    ['im vegetarian lol', diet('vegetarian')],
    ['i prefer window seat', seat('window')],
    ['call me Kai', goesBy('Kai')],
    ['export keeps failing again ugh', ISSUE],
    ['upload timed out twice today', ISSUE],
    ['ok so i started eating fish', eats('fish')],
    ['i want aisle seat pls', seat('aisle')],
    ['btw im a pescatarian', diet('pescatarian')],
    ['yo call me Dre', goesBy('Dre')],
    ['i like the middle seat tbh', seat('middle')],
    ['sync keeps failing smh', ISSUE],
    ['i have started eating meat', eats('meat')],
    ['update: im vegan now', diet('vegan')],
    ['CALL ME Bo', goesBy('Bo')],
    ['ok: im vegan', diet('vegan')],
    ['Call me 李雷。我是素食者。', goesBy('李雷')],
  ]),
  ...cases('long and rambling', [
    [
      "So last spring my sister dragged me to this retreat in the mountains, and honestly I went in skeptical, but after a week of the food there and a lot of long walks I came home and decided I'm vegetarian now, which my colleagues still find hilarious because I used to be the barbecue guy at every office party.",
      diet('vegetarian'),
    ],
    [
      "OK this is going to be long, sorry. We fly a lot for my husband's work and the kids are small, and what I've learned after far too many flights is that I want the aisle seat, always, because someone needs to get up every twenty minutes and it is never going to be the toddler who climbs over strangers.",
      seat('aisle'),
    ],
    [
      'I have tried everything: clearing the cache, another browser, a different laptop, even the office network instead of home, and the export keeps failing at about 80 percent, every single time, with no error message at all, which is the frustrating part.',
      ISSUE,
    ],
    [
      "My grandmother was from Kerala and my grandfather from Lyon, which is why my name confuses everyone at airports, so I'll make it easy: call me Anaïs. And for what it's worth, I'm a vegetarian, like her.",
      goesBy('Anaïs'),
      diet('vegetarian'),
    ],
    ["Long story short, my doctor said my iron was low, I argued about it for months, I read far too many articles, and in the end I've started eating fish again, mostly salmon, twice a week.", eats('fish')],
  ]),
  ...cases('non-native English', [
    ['Hello, I am from Brazil, please call me João, is more easy for me.', goesBy('João')],
    ['For the flight I prefer the window seat, for see the mountains.', seat('window')],
    ["I'm vegetarian since many years, no meat and no fish please.", diet('vegetarian')],
    ['Sorry my english. The upload keeps failing, I try three times already.', ISSUE],
    ['Me I have started eating dairy again after the doctor visit.', eats('dairy')],
    ['Call me Wojciech, but is ok if is difficult, many people say Wojtek.', goesBy('Wojciech')],
    ["In my country everybody eat meat, but I'm vegan.", diet('vegan')],
    ['I want the middle seat, near to my daughter.', seat('middle')],
  ]),
  ...cases('emoji', [
    ["I'm vegan 🌱🌱", diet('vegan')],
    ['call me Zoë 😊', goesBy('Zoë')],
    ['✈️ I prefer the window seat ✈️', seat('window')],
    ['the export keeps failing 😤😤😤', ISSUE],
    ['Call me 李雷🙂', goesBy('李雷')],
    ["🐟 I've started eating fish again 🐟", eats('fish')],
    ["I'm a pescatarian 🍣 and call me Mei 👋", diet('pescatarian'), goesBy('Mei')],
  ]),
  ...cases('curly apostrophes', [
    ['I’m vegetarian.', diet('vegetarian')],
    ['I’ve gone back to eating meat.', eats('meat')],
    ['I’m a vegan, I’d say.', diet('vegan')],
    ['Call me D’Angelo.', goesBy('D’Angelo')],
    ['That’s fine: I want the aisle seat.', seat('aisle')],
    ['I’m pescatarian, as I’ve said before.', diet('pescatarian')],
  ]),
  ...cases('several facts', [
    ["I'm vegan. Call me Ada. I want a window seat.", diet('vegan'), goesBy('Ada'), seat('window')],
    ['Call me Søren and I prefer the aisle seat.', goesBy('Søren'), seat('aisle')],
    ["The sync keeps failing, and I'm vegetarian by the way.", ISSUE, diet('vegetarian')],
  ]),
];
