/**
 * The words the speech extractor reads a clause by: what a word is (a job, a relative, a pet,
 * a language), which verbs state a fact, and how a verb is written for "the user". Lower case;
 * sets, so each lookup is constant time.
 */

import { KEPT_ANIMALS } from './animals';

const set = (words: string): ReadonlySet<string> => new Set(words.trim().split(/\s+/));

export const DIETS = set('vegan vegetarian pescatarian pescetarian veggie keto paleo carnivore flexitarian kosher halal');
/** Typos and spellings of a diet, to the seed's word. */
export const DIET_SPELLING: Readonly<Record<string, string>> = { veggie: 'vegetarian', pescetarian: 'pescatarian', vegeterian: 'vegetarian', vegitarian: 'vegetarian', vegen: 'vegan' };

export const RELATIVES = set(`
  mother mom mum mommy mama father dad daddy papa parents sister sis brother bro siblings sibling son daughter kids kid children child
  baby wife husband partner boyfriend girlfriend fiance fiancee fiancé fiancée spouse grandma grandmother granny grandpa grandfather grandparents
  aunt uncle cousin niece nephew friend bestie bff roommate flatmate neighbor neighbour boss coworker colleague manager mentor stepmom stepdad
  stepson stepdaughter twin in-laws mother-in-law father-in-law sister-in-law brother-in-law godson goddaughter grandson granddaughter grandkids
  grandchildren family bf gf hubby daughters sons brothers sisters bros cousins friends aunts uncles nieces nephews childs grandsons granddaughters`);

export const PETS = set(`
  dog dogs puppy puppies pup cat cats kitten kittens kitty hamster hamsters rabbit rabbits bunny parrot parrots bird birds fish goldfish turtle
  turtles tortoise snake snakes pets pet lizard gecko horse horses pony guinea ferret chickens chicken hens pig pigs goat goats budgie cockatiel iguana
  tabby labrador`);

const IRREGULAR_PLURALS: Readonly<Record<string, string>> = { mouse: 'mice', goose: 'geese', ox: 'oxen' };

/** The plural forms of an English noun: "s", "es" after a sibilant, "ies" after a consonant's "y", "ves" for "f"/"fe", and the irregular few. */
export function pluralsOf(w: string): string[] {
  const irregular = IRREGULAR_PLURALS[w];
  if (irregular !== undefined) return [irregular];
  if (/(?:s|x|z|ch|sh)$/.test(w)) return [`${w}es`];
  if (/[^aeiou]y$/.test(w)) return [`${w.slice(0, -1)}ies`];
  if (/fe?$/.test(w)) return [`${w}s`, w.replace(/fe?$/, 'ves')];
  return [`${w}s`];
}

let keptPlurals: ReadonlySet<string> | undefined;

/** Whether `w` names an animal people keep: the list above, or WordNet's (./animals.ts), one or several ("ponies", "mice"). */
export function isPet(w: string): boolean {
  keptPlurals ??= new Set([...PETS, ...KEPT_ANIMALS].flatMap(pluralsOf));
  return PETS.has(w) || KEPT_ANIMALS.has(w) || keptPlurals.has(w);
}

export const LANGUAGES = set(`
  english spanish french german italian portuguese dutch russian polish ukrainian czech swedish norwegian danish finnish greek turkish arabic
  hebrew persian farsi hindi urdu bengali punjabi tamil telugu marathi gujarati chinese mandarin cantonese japanese korean vietnamese thai
  indonesian malay tagalog filipino swahili yoruba igbo hausa amharic zulu afrikaans romanian hungarian bulgarian serbian croatian catalan
  basque welsh irish latin esperanto asl`);

export const RELIGIONS = set('christian catholic protestant muslim jewish hindu buddhist atheist agnostic sikh mormon orthodox pagan spiritual religious');

/** Conditions a person "has". */
export const CONDITIONS = set(`
  asthma diabetes adhd autism anxiety depression migraines migraine arthritis eczema epilepsy celiac coeliac ibs insomnia cancer covid flu
  cold fever allergies allergy hypertension dyslexia ptsd ocd bipolar lupus scoliosis tinnitus sinusitis backache injury`);

export const HEALTH_STATES = set('pregnant diabetic asthmatic sick ill injured recovering sober vaccinated celiac coeliac epileptic disabled deaf blind colorblind');

/**
 * Things of an ordinary day: meals and what is eaten or drunk at one, chores, things one carries
 * or leaves, the commute and the weather, and the body's passing states. A fact about one of
 * these is usually a passing remark ("burned the toast", "missed the bus"); the topic model
 * (./classify.ts) reads the class as a feature and learns how much it weighs.
 */
export const EVERYDAY = set(`
  breakfast brunch lunch dinner supper snack snacks meal toast cereal pancakes pancake waffles sandwich sandwiches pizza pasta noodles soup
  salad leftovers takeaway takeout coffee tea latte cappuccino espresso dishes laundry washing ironing hoovering vacuuming vacuum groceries
  shopping trash bins rubbish bathroom kitchen fridge oven bed sheets shower bath nap sleep keys wallet phone charger umbrella laptop keyboard
  bus train tram subway metro traffic queue commute rain weather sunburn headache hangover toe sneeze sneezed hiccups yawn milk bread
  sofa couch pen mug cup socks jeans shirt`);

export const RELATIONSHIP_STATES = set('married single engaged divorced widowed separated dating taken maried');

/** Words of a job ("a nurse", "an engineer"); with these suffixes too unless in NOT_JOBS. */
export const JOBS = set(`
  nurse doctor teacher engineer developer programmer designer lawyer accountant chef cook baker waiter waitress student barista
  pharmacist dentist architect scientist researcher professor lecturer tutor journalist writer author editor artist musician photographer
  painter actor actress dancer singer pilot driver mechanic electrician plumber carpenter firefighter cop police officer soldier
  farmer librarian cashier manager consultant analyst entrepreneur founder ceo cto freelancer contractor therapist psychologist
  psychiatrist counselor counsellor surgeon vet veterinarian paramedic midwife caregiver nanny babysitter cleaner janitor receptionist
  secretary clerk banker economist trader realtor salesman saleswoman marketer recruiter coach trainer athlete youtuber streamer
  blogger influencer translator interpreter biologist chemist physicist mathematician historian teacher's intern apprentice retiree
  retired homemaker housewife stay-at-home sysadmin tester technician sailor fisherman butcher tailor hairdresser barber stylist
  gardener landscaper builder welder machinist optometrist physiotherapist physio radiologist dietitian nutritionist pastor priest
  rabbi imam monk nun professor postdoc phd engineer`);
export const NOT_JOBS = set(`
  user other brother sister mother father daughter partner member number lover fan order matter water winter summer letter
  power paper computer river person super tower corner dinner finger burger beginner sticker layer player smoker drinker
  eater talker walker sleeper thinker listener introvert extrovert center centre beer monster killer sucker loner gamer widower widow member gardener foodie`);
export const JOB_SUFFIX = /^[a-z]{3,}(?:ist|ian|eer|ant|ent|or|er)$/;

/** Adjective-like complements of "I am" that say how the user feels, not what they are. */
export const FEELINGS = set(`
  so very really super pretty quite too kinda sorta a bit little happy sad glad tired exhausted excited nervous worried scared afraid sorry
  bored busy sure fine ok okay good great well bad sick stressed anxious thrilled proud grateful thankful curious confused lost done back
  home here there ready late early hungry thirsty sleepy angry upset mad annoyed frustrated overwhelmed amazed impressed surprised
  shocked lucky blessed relieved hopeful afraid jealous lonely calm fine alright right wrong not just still also always the that this it`);

/** Verbs that say what someone thinks, asks or reports: never a fact by themselves. */
export const MENTAL = set(`
  think thought guess guessed wonder wondered know knew mean meant feel felt suppose supposed believe believed say said tell told ask asked
  wish wished hope hoped bet doubt forgot forget remember recall realize realized realised realise understand understood imagine imagined
  agree agreed disagree appreciate appreciated see hear heard want wanted need needed would could should might must can may
  promise promised swear swore reckon reckoned admit admitted`);

/** Present-tense verbs a fact may have, with their third person when it is not regular. */
export const IRREGULAR_THIRD: Readonly<Record<string, string>> = {
  have: 'has',
  do: 'does',
  go: 'goes',
  be: 'is',
  am: 'is',
  watch: 'watches',
  teach: 'teaches',
  fix: 'fixes',
  wash: 'washes',
  miss: 'misses',
  catch: 'catches',
  coach: 'coaches',
  relax: 'relaxes',
};

/** Irregular past forms that report something the user did. */
export const IRREGULAR_PAST = set(`
  went got saw met took made ran bought found won lost began wrote ate drank gave left flew drove rode sang swam taught heard kept sent spent
  built caught brought fell sold came became did had chose grew held paid quit threw broke hit sat stood slept woke drew fought led lent
  shot shut spoke stole struck swung tore wore wove upset adopted`);

/** Present-tense verbs that state a lasting fact or habit, beyond the ones handled by their own frame. */
export const HABIT_VERBS = set(`
  play run cook bake paint draw write read sing dance swim hike bike cycle ride climb surf ski skate knit sew garden fish hunt camp travel
  volunteer teach coach collect meditate pray practice practise train lift jog walk drive take go visit attend watch listen eat drink
  drink use wear do make grow build shoot study work live speak own have love like enjoy adore prefer hate dislike support follow
  celebrate host organize organise run mentor babysit foster rescue care cycle row box fence bowl golf sail kayak dive consume suffer hold
  smoke vape cherish admire respect trust miss treasure`);

/** Words that end a fact's object: what follows belongs to another thought. */
export const OBJECT_END = set('because cause coz cuz since but which who whom whose where although though whereas while lol lmao haha hahaha tbh imo btw omg ugh idk xd');

/** Words of a clause that open a new subject after "and"/"but"/a comma. */
export const SUBJECT_START = set("i i'm im i've ive i'd i'll my me we we're it it's he she they that this there you");

/** Fillers a clause may start with before its subject ("so", "btw", "honestly"). */
export const FILLERS = set(`
  so well oh ok okay yeah yes yep yup no nope hi hello hey hiya yo also and but btw fyi actually honestly basically anyway anyways lol haha
  um uh hmm like just plus then now oh ah wow omg update quick note ps sorry haha lmao tbh thanks thx ty alright right sure cool nice great
  ngl ya yah yea ye welp
  dear good morning afternoon evening greetings heh hehe oof ugh welp`);

/** Hedges that lower a fact's confidence. */
export const HEDGE_WORDS = set('maybe probably perhaps possibly kinda sorta apparently supposedly');

/** Starts of a clause that is a question, a request to the assistant or a hypothetical: no fact. */
export const NON_STATEMENT_START = set(`
  what who whom whose which where when why how what's where's who's how's when's why's do does did is are was were can could would should shall will won't can't isn't aren't
  don't doesn't didn't wouldn't couldn't shouldn't if unless whenever suppose supposing imagine assuming please pls plz help tell show
  give find recommend suggest book remind let list explain describe write make create check order get send any anything`);

/** Words that make a statement hypothetical or wished for when they follow the subject. */
export const HYPOTHETICAL = set("would could might should wish wonder i'd id if were");

/** Frequency phrases that make a present-tense statement a routine. */
export const FREQUENCY =
  /\b(?:every|each)\s+(?:day|morning|evening|night|week|weekend|month|year|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b|\b(?:daily|weekly|monthly|usually|always|often|normally|regularly|twice|once a|on weekends|on (?:mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|sundays))\b/;
