/**
 * The semantic pairs (`npm run eval -- --semantic`, ./eval-semantic.ts): a memory and a question
 * it answers that share no content word (no lexical term of src/embed/terms.ts, prefixes
 * included: test/eval/semantic-pairs.test.ts checks it), so only meaning can connect them. Each
 * question is asked of all the memories of its half, the other memories being its distractors.
 *
 * Two halves written by different procedures:
 * - DEV, written first, by topic: two to four pairs for each topic of src/extract/topics.ts,
 *   each a fact as the extractor states it and a question an assistant would be asked. The
 *   semantic channel's choices (senses, hypernym depth, fan-out, decay, share) were tuned on it.
 * - VALIDATION, written afterwards without reading DEV again and never tuned on: eight everyday
 *   personas, each a handful of facts in the user's own words (as episodes keep them), and the
 *   questions of situations an assistant meets with that person (planning a meal, a gift, a
 *   trip, a doctor's visit), phrased as the user or the assistant would.
 */

export interface SemanticPair {
  /** The topic (DEV) or persona (VALIDATION) it was written under. */
  group: string;
  memory: string;
  question: string;
}

const pair = (group: string, memory: string, question: string): SemanticPair => ({ group, memory, question });

export const DEV: readonly SemanticPair[] = [
  pair('identity', "The user's name is Priya.", 'how should I address you?'),
  pair('identity', 'The user wants to be called Doc.', 'what nickname do you like?'),
  pair('pronouns', 'The user uses she and her pronouns.', 'which gender terms fit you?'),
  pair('age', 'The user turned forty last spring.', 'how old are you now?'),
  pair('age', 'The user is 27.', 'what is your age?'),
  pair('birthday', 'The user celebrates a birthday in July.', 'what month were you born?'),
  pair('birthday', "The user's birthday is March 3.", 'when should we throw you a party?'),
  pair('home', 'The user lives in Lisbon.', 'which city is your home?'),
  pair('home', 'The user lives in a small flat.', 'where do you reside?'),
  pair('origin', 'The user grew up in Ohio.', 'what state are you from originally?'),
  pair('origin', 'The user was raised on a farm.', 'did you spend your childhood in the countryside?'),
  pair('occupation', 'The user works as a nurse.', 'what is your job?'),
  pair('occupation', 'The user teaches chemistry.', 'what subject do you instruct?'),
  pair('occupation', 'The user is a carpenter.', 'what trade are you in?'),
  pair('employer', 'The user is employed by a bank.', 'which company do you work for?'),
  pair('employer', 'The user works at a hospital.', 'is your employer a clinic?'),
  pair('work', 'The user manages a team of developers.', 'how many people do you supervise?'),
  pair('work', 'The user used to be a waiter.', 'what was your previous occupation?'),
  pair('work', 'The user writes software for a living.', 'what programming languages do you code in?'),
  pair('education', 'The user studied physics at university.', 'what did you major in at college?'),
  pair('education', 'The user is taking a night class in pottery.', 'are you enrolled in any courses?'),
  pair('education', 'The user has a degree in law.', 'are you a lawyer by training?'),
  pair('relationship', 'The user is married.', 'do you have a husband or wife?'),
  pair('relationship', 'The user recently got engaged.', 'when is the wedding?'),
  pair('relationship', 'The user is single.', 'are you dating anyone?'),
  pair('family', 'The user has two daughters.', 'how many kids do you have?'),
  pair('family', "The user's mother lives nearby.", 'is your mom close by?'),
  pair('family', "The user's brother is a pilot.", 'what does your sibling do?'),
  pair('family', "The user's grandmother turned ninety.", 'how old is your granny?'),
  pair('pets', 'The user has a golden retriever.', 'what breed is your dog?'),
  pair('pets', 'The user owns two cats.', 'do you have any kittens?'),
  pair('pets', 'The user keeps a parrot.', 'what kind of bird do you have?'),
  pair('diet', 'The user is vegan.', 'can you eat cheese?'),
  pair('diet', 'The user follows a keto diet.', 'what foods should I avoid serving?'),
  pair('diet', 'The user eats no meat.', 'should I order the steak for you?'),
  pair('allergy', 'The user is allergic to peanuts.', 'which nuts are dangerous for you?'),
  pair('allergy', 'The user has a shellfish allergy.', 'can you eat shrimp?'),
  pair('allergy', 'The user is lactose intolerant.', 'is milk a problem for you?'),
  pair('health', 'The user has asthma.', 'do you have any breathing problems?'),
  pair('health', 'The user injured a knee last year.', 'suggest a workout plan'),
  pair('health', 'The user has diabetes.', 'do you need to watch your blood sugar?'),
  pair('health', 'The user has a bad back.', 'does your spine hurt?'),
  pair('preference', 'The user loves jazz.', 'what music do you enjoy?'),
  pair('preference', 'The user dislikes horror movies.', 'which films should I not recommend?'),
  pair('preference', 'The user prefers tea over coffee.', 'what beverage do you want?'),
  pair('preference', 'The user likes spicy curry.', 'do you enjoy hot food?'),
  pair('hobby', 'The user plays chess.', 'do you enjoy board games?'),
  pair('hobby', 'The user paints landscapes in watercolor.', 'what kind of art do you make?'),
  pair('hobby', 'The user practices yoga.', 'suggest some exercise for me'),
  pair('hobby', 'The user knits scarves.', 'do you do any sewing or crafts?'),
  pair('hobby', 'The user bakes sourdough.', 'do you make your own bread?'),
  pair('possession', 'The user rides a 2019 Trek.', 'my bike is making a weird noise'),
  pair('possession', 'The user owns a vintage guitar.', 'what instrument do you play?'),
  pair('possession', 'The user drives a Honda Civic.', 'what car do you have?'),
  pair('possession', 'The user has an old piano.', 'do you have a keyboard at home?'),
  pair('routine', 'The user jogs every morning.', 'when do you usually run?'),
  pair('routine', 'The user meditates before sleeping.', 'how do you relax at night?'),
  pair('routine', 'The user cooks dinner every evening.', 'what should I prepare for supper?'),
  pair('plan', 'The user plans to run a marathon.', 'what race are you training for?'),
  pair('plan', 'The user wants to learn to sail.', 'are you interested in boats?'),
  pair('plan', 'The user hopes to buy a house.', 'are you saving for a home?'),
  pair('language', 'The user speaks fluent Spanish.', 'which languages do you know?'),
  pair('language', 'The user is learning Japanese.', 'are you studying a foreign tongue?'),
  pair('belief', 'The user is a practicing Buddhist.', 'what religion do you follow?'),
  pair('belief', 'The user attends church on Sundays.', 'are you religious?'),
  pair('belief', 'The user is a pacifist.', 'how do you feel about war?'),
  pair('travel', 'The user prefers window seats on planes.', 'where do you like to sit when flying?'),
  pair('travel', 'The user always travels by train.', 'do you take the railway?'),
  pair('travel', 'The user hates long flights.', 'how do you feel about air travel?'),
  pair('trip', 'The user visited Kyoto in April.', 'have you been to Japan?'),
  pair('trip', 'The user went camping in Yosemite.', 'did you sleep in a tent?'),
  pair('trip', 'The user is going to Paris next month.', 'are you traveling to France soon?'),
  pair('event', 'The user graduated in 2015.', 'when did you finish school?'),
  pair('event', "The user's father passed away in May.", 'did someone in your family die recently?'),
  pair('event', 'The user moved to a new apartment last week.', 'did you just relocate?'),
  pair('issue', "The user's laptop battery drains quickly.", 'is your computer having power problems?'),
  pair('issue', "The user's phone screen is cracked.", 'is your mobile display broken?'),
  pair('issue', "The user's printer jams often.", 'is the paper getting stuck in your machine?'),
  pair('general', 'The user is afraid of heights.', 'do tall buildings scare you?'),
  pair('general', 'The user is an early riser.', 'do you wake up at dawn?'),
];

/** VALIDATION as written: per persona, what they said and what an assistant is then asked. */
const PERSONAS: Readonly<Record<string, readonly (readonly [memory: string, question: string])[]>> = {
  'Marta, retired teacher': [
    ['I spend every afternoon in my vegetable garden.', 'any tips on what to plant in April?'],
    ['My joints ache when it rains.', 'does arthritis bother you?'],
    ['I retired from teaching in 2019.', 'are you still working?'],
    ['My grandson visits on Saturdays.', 'which relatives come to see you?'],
    ['I live by the sea in a little town.', 'is your house near the beach?'],
    ['I bake a cake for every birthday.', 'what dessert could you bring to the party?'],
  ],
  'Kenji, student nurse': [
    ['I work night shifts at the hospital.', 'what hours is your job?'],
    ['Ramen is my comfort food.', 'what should we have for dinner tonight?'],
    ['I cycle to the clinic every day.', 'how do you commute?'],
    ["I'm teaching myself the guitar.", 'which instrument are you learning?'],
    ['I share a flat with two roommates.', 'do you live alone?'],
  ],
  'Omar, restaurant owner': [
    ['I only eat halal meat.', 'can I cook pork for you?'],
    ['I own a small restaurant downtown.', 'what business do you run?'],
    ['I never miss a soccer match on TV.', 'what sports do you watch?'],
    ['We have three children.', 'how big is your family?'],
    ['My wife is a dentist.', 'what does your spouse do?'],
  ],
  'Lena, software tester': [
    ['I test software for a game studio.', "what's your profession?"],
    ["I'm training for the Berlin marathon.", 'how far do you run each week?'],
    ["I can't have wheat or barley.", 'should the bread be gluten free?'],
    ['My cat sleeps on my keyboard.', 'do you have pets?'],
    ['I drink green tea all day.', 'would you like a hot beverage?'],
  ],
  'Tom, truck driver': [
    ['I drive a truck across the country.', 'what vehicle do you operate at work?'],
    ['My lower back has been killing me.', 'do you have any pain I should know about?'],
    ['On my days off I go fishing at the lake.', 'what do you do on weekends by the water?'],
    ['Country music is all I listen to.', 'which songs do you like?'],
    ['I quit smoking last winter.', 'do you still use cigarettes?'],
  ],
  'Aisha, new mother': [
    ['We just had a baby girl.', 'how old is your daughter?'],
    ['I barely sleep these days.', 'are you tired?'],
    ['Our studio apartment is tiny.', 'how much room do you have at home?'],
    ["I'm on maternity leave until June.", 'when do you return to work?'],
    ['My husband travels a lot for his job.', 'is your partner often away?'],
  ],
  'Ra\\u00fal, architect': [
    ['I design office buildings.', 'are you an architect?'],
    ['I collect old vinyl records.', 'what albums do you own?'],
    ['Espresso every morning, no exceptions.', 'how do you take your coffee?'],
    ['A good Rioja makes my evening.', 'would you like some wine with dinner?'],
    ['I sketch people in caf\u00e9s.', 'do you draw?'],
  ],
  'Grace, veterinarian': [
    ['I treat sick animals for a living.', 'are you a vet?'],
    ['I climb a mountain every summer.', 'do you enjoy hiking?'],
    ['A bee sting once put me in hospital.', 'are you allergic to insects?'],
    ['I sing in the church choir.', 'do you perform music?'],
    ['My sister lives in Toronto.', 'do you have family in Canada?'],
  ],
  'Felix, teenager': [
    ['I play video games every night.', 'which consoles do you own?'],
    ['I skateboard after school.', 'do you do any sports?'],
    ['I have a maths exam on Friday.', 'when is your test?'],
    ['I got braces last month.', 'how are your teeth?'],
    ['My parents are divorced.', 'do your mum and dad live together?'],
  ],
  'Nadia, lawyer': [
    ['I practise corporate law.', 'are you an attorney?'],
    ['I grew up speaking Arabic and French.', 'what languages are you fluent in?'],
    ["I'm relocating to Dubai in the autumn.", 'are you moving abroad soon?'],
    ['I fast during Ramadan.', 'should we avoid lunch meetings this month?'],
    ["I'm expecting twins.", 'are you pregnant?'],
  ],
  'George, widower': [
    ['I lost my wife three years ago.', 'are you a widower?'],
    ['I wear a hearing aid.', 'do you have trouble with your ears?'],
    ['I do the crossword with my morning coffee.', 'do you like puzzles?'],
    ['I served in the navy for twenty years.', 'were you in the military?'],
    ['I walk the dog twice a day.', 'how often do you take your puppy out?'],
  ],
  'Chloe, pastry chef': [
    ["I'm a pastry chef.", 'do you cook professionally?'],
    ['I live in a camper van.', 'what vehicle do you sleep in?'],
    ['I surf at dawn before work.', 'do you go to the ocean early?'],
    ['I stay up until three most nights.', 'do you keep late hours?'],
    ['My boyfriend is a firefighter.', 'what does your partner do?'],
  ],
  'Sam, accountant': [
    ['I do taxes for small firms.', 'are you an accountant?'],
    ['I need glasses to read.', 'how is your eyesight?'],
    ["We're saving up for our wedding.", 'when are you getting married?'],
    ['I go bouldering at the gym.', 'do you climb?'],
    ['I budget every penny.', 'are you careful with money?'],
  ],
  'Ingrid, farmer': [
    ['I keep forty sheep.', 'what livestock do you raise?'],
    ['My tractor broke down yesterday.', 'is your farm machinery working?'],
    ['I grow potatoes and carrots.', 'what vegetables do you farm?'],
    ['We have a sauna by the lake.', 'do you take steam baths?'],
    ['I knit sweaters in the winter.', 'do you make your own clothes?'],
    ['My collie rounds up the flock.', 'do you have a sheepdog?'],
  ],
};

export const VALIDATION: readonly SemanticPair[] = Object.entries(PERSONAS).flatMap(([group, said]) => said.map(([memory, question]) => pair(group, memory, question)));
