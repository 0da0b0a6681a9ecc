/**
 * The reader's dev chat corpus, part two (see chat-a.ts): emoji, long rambling messages, names
 * and self-introductions, hedges, and messages with several facts.
 */
import { labelled } from '../speech/corpus-a';

export const DEV_EMOJI = labelled('emoji', [
  ['new job at a startup 🚀', 'employer: The user works at a startup.'],
  ['I ❤️ dumplings', 'preference: The user loves dumplings.'],
  ['just adopted a kitten 🐱', 'pets: The user adopted a kitten.'],
  ['I live in Lisbon 🇵🇹', 'home: The user lives in Lisbon.'],
  ["I'm vegan 🌱", 'diet: The user follows a vegan diet.'],
  ['i ❤ hiking', 'hobby: The user loves hiking.'],
  ['I have two dogs 🐶🐶', 'pets: The user has two dogs.'],
  ['im a teacher 👩‍🏫', 'occupation: The user works as a teacher.'],
  ["I'm allergic to shrimp 🦐😩", 'allergy: The user is allergic to shrimp.'],
  ['I play guitar 🎸', 'hobby: The user plays guitar.'],
  ['Dmitri here 👋', "identity: The user's name is Dmitri."],
  ['I 💔 mornings', 'preference: The user hates mornings.'],
  ["I'm 28 🎉", 'age: The user is 28 years old.'],
  ['I speak Spanish 🇪🇸 and French 🇫🇷', 'language: The user speaks Spanish and French.'],
  ['my cat Mochi 😻 is 4', "pets: The user's cat Mochi is 4."],
  ['I work at a bakery 🥐', 'employer: The user works at a bakery.'],
  ['getting married in June!! 💍', 'plan: The user is getting married in June.'],
  ['I hate cilantro 🤢', 'preference: The user hates cilantro.'],
  ['I run every morning 🏃‍♀️', 'routine: The user runs every morning.'],
  ["I'm from Seoul 🇰🇷", 'origin: The user is from Seoul.'],
]);

export const DEV_LONG = labelled('long rambling', [
  [
    'So yesterday was a total mess, the train was late and my boss was grumpy all afternoon, and then on the way home it started raining, anyway I work as a paralegal so these weeks are always crazy.',
    'occupation: The user works as a paralegal.',
  ],
  [
    "ok so long story, I was at my cousin's wedding last weekend and everyone kept asking about work and honestly it was exhausting but the food was good, I'm vegetarian so I mostly ate salad lol",
    'diet: The user follows a vegetarian diet.',
  ],
  ["Been thinking a lot about how much time I waste on my phone, scrolling and scrolling, and it's not great for my sleep either, which is already bad because I have insomnia.", 'health: The user has insomnia.'],
  ["We had people over on Saturday and the dog barked the whole time, my partner thinks we should get a trainer but I don't know, he's a rescue and he's just nervous around strangers."],
  [
    'Honestly this week has been a blur, meetings back to back, I barely had time to eat, and my flatmate left the kitchen a mess again, I live in a shared house in Bristol so that is kind of normal.',
    'home: The user lives in a shared house in Bristol.',
  ],
  [
    "I don't really know where to start, I've been feeling stuck lately, I've been a software developer for ten years and I'm not sure I still enjoy it, the money is fine but that's about it.",
    'occupation: The user works as a software developer.',
  ],
  [
    "My mornings are chaos, I wake up at six, feed the cats, make coffee, and then I walk to the office because I don't own a car, and by the time I get there I'm already tired.",
    'pets: The user has cats.',
    'possession: The user does not own a car.',
  ],
  ['Not sure if this matters but I spent the afternoon fixing the fence and my hands are killing me now, the wind knocked half of it down last night.'],
  ["anyway the reason i ask is my mum is coming to stay for two weeks and she's coeliac and i have no idea what to cook, i usually just make pasta every night", "family: The user's mum is coeliac."],
  ["I went to the dentist this morning and it was fine, then I got lunch with Sara and we talked about her new flat for ages, it's near the river and the rent is insane."],
  [
    'I used to live in Madrid for about five years before moving here, and I miss it every day, the food, the late dinners, the people, but Amsterdam has its charms.',
    'event: The user used to live in Madrid for about five years before moving here.',
  ],
  ['Right, so the printer jammed again, I spilled coffee on my notes, and the meeting got moved twice. Typical Monday really.'],
  ["Quick background: I've been learning Italian for about a year because my partner's family is from Naples and I want to be able to talk to his grandmother.", 'language: The user has been learning Italian for about a year.'],
  ["The neighbours were drilling all weekend, I couldn't concentrate at all, and my report is due tomorrow, so I'm going to be up late tonight."],
  ["It's funny, I never thought I'd like gardening but since we moved I've been growing tomatoes and herbs on the balcony and it's become my favourite thing.", 'hobby: The user has been growing tomatoes and herbs on the balcony.'],
]);

export const DEV_NAMES = labelled('names', [
  ["I'm Lena, 31, and I work in marketing.", "identity: The user's name is Lena.", 'age: The user is 31 years old.', 'work: The user works in marketing.'],
  ['Dmitri here', "identity: The user's name is Dmitri."],
  ["Name's Inés.", "identity: The user's name is Inés."],
  ['My name is Robert but everyone calls me Bo.', "identity: The user's name is Robert.", 'identity: The user goes by Bo.'],
  ["I'm Wei from Xi'an.", "identity: The user's name is Wei.", "origin: The user is from Xi'an."],
  ['hey, priya here, 26', "identity: The user's name is Priya.", 'age: The user is 26 years old.'],
  ['Hi! Tomás, from Buenos Aires.', "identity: The user's name is Tomás.", 'origin: The user is from Buenos Aires.'],
  ['This is Grace, I run a small café.', "identity: The user's name is Grace.", 'possession: The user runs a small café.'],
  ['call me Max', 'identity: The user goes by Max.'],
  ['The name is Olu.', "identity: The user's name is Olu."],
  ["Hey there, I'm Kofi and I'm a pharmacist.", "identity: The user's name is Kofi.", 'occupation: The user works as a pharmacist.'],
  ['My friends call me Jo.', 'identity: The user goes by Jo.'],
  ["I'm Anna. I live in Vienna.", "identity: The user's name is Anna.", 'home: The user lives in Vienna.'],
  ['Sam, 44, plumber.', "identity: The user's name is Sam.", 'age: The user is 44 years old.', 'occupation: The user works as a plumber.'],
  ['hi im marco', "identity: The user's name is Marco."],
  ['Hello, my name is Aisha and I am a student.', "identity: The user's name is Aisha.", 'education: The user is a student.'],
  ['Everyone calls me Red.', 'identity: The user goes by Red.'],
  ["I'm Jonas, from Hamburg.", "identity: The user's name is Jonas.", 'origin: The user is from Hamburg.'],
  ['my name is Zoe and im 19', "identity: The user's name is Zoe.", 'age: The user is 19 years old.'],
  ['Hey it’s Farah', "identity: The user's name is Farah."],
]);

export const DEV_HEDGED = labelled('hedged', [
  ['I think I might be lactose intolerant.', 'allergy: The user is lactose intolerant.'],
  ["I'm fairly sure I'm allergic to kiwi.", 'allergy: The user is allergic to kiwi.'],
  ["I guess I'm a morning person.", 'preference: The user is a morning person.'],
  ['probably moving to Cardiff in the autumn', 'plan: The user is moving to Cardiff in the autumn.'],
  ["I'm kind of vegetarian.", 'diet: The user follows a vegetarian diet.'],
  ['I suppose I live in the suburbs.', 'home: The user lives in the suburbs.'],
  ["pretty sure i'm the only vegan at work", 'diet: The user follows a vegan diet.'],
  ['I think I have mild asthma.', 'health: The user has mild asthma.'],
  ['I might be allergic to cats, not sure.', 'allergy: The user is allergic to cats.'],
  ["I'm not sure but I think I'm gluten intolerant.", 'allergy: The user is gluten intolerant.'],
  ['maybe i like jazz more than rock', 'preference: The user likes jazz more than rock.'],
  ["I'd say I'm an introvert.", 'preference: The user is an introvert.'],
  ["i reckon i'm a decent cook", 'hobby: The user is a decent cook.'],
  ['I believe I was born in Leeds.', 'origin: The user was born in Leeds.'],
  ["I'm probably going to study medicine.", 'plan: The user plans to study medicine.'],
]);

export const DEV_SEVERAL = labelled('several facts', [
  ["i'm 35, married, one kid, live in austin", 'age: The user is 35 years old.', 'relationship: The user is married.', 'family: The user has one kid.', 'home: The user lives in Austin.'],
  ['I live in Berlin and work as a nurse.', 'home: The user lives in Berlin.', 'occupation: The user works as a nurse.'],
  ["I'm 29, single, and I work in finance.", 'age: The user is 29 years old.', 'relationship: The user is single.', 'work: The user works in finance.'],
  ['vegan, 42, two cats', 'diet: The user follows a vegan diet.', 'age: The user is 42 years old.', 'pets: The user has two cats.'],
  ['I teach yoga and I have a son.', 'work: The user teaches yoga.', 'family: The user has a son.'],
  ["I'm from Kenya, live in Toronto and work as a nurse.", 'origin: The user is from Kenya.', 'home: The user lives in Toronto.', 'occupation: The user works as a nurse.'],
  ["I'm a nurse and a mum of three.", 'occupation: The user works as a nurse.', 'family: The user is a mum of three.'],
  ['I have a dog and two cats and I live in Cork.', 'pets: The user has a dog and two cats.', 'home: The user lives in Cork.'],
  ["I'm vegetarian and allergic to nuts.", 'diet: The user follows a vegetarian diet.', 'allergy: The user is allergic to nuts.'],
  ['married, 2 kids, work in IT', 'relationship: The user is married.', 'family: The user has 2 kids.', 'work: The user works in IT.'],
  ['I speak English and Hindi and I love cricket.', 'language: The user speaks English and Hindi.', 'preference: The user loves cricket.'],
  ["I'm 50, divorced and I live by the sea.", 'age: The user is 50 years old.', 'relationship: The user is divorced.', 'home: The user lives by the sea.'],
  ['I work at a library and I volunteer at an animal shelter.', 'employer: The user works at a library.', 'hobby: The user volunteers at an animal shelter.'],
  ["I'm a student, 20, from Ghana.", 'education: The user is a student.', 'age: The user is 20 years old.', 'origin: The user is from Ghana.'],
  ['I run, I swim and I cycle.', 'hobby: The user runs.', 'hobby: The user swims.', 'hobby: The user cycles.'],
]);
