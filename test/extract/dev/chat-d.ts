/**
 * The reader's dev chat corpus, part four (see chat-a.ts): durable or passing. Remarks about the
 * moment (a meal, a chore, the commute, the weather, the body's passing state) that a careful
 * human would not store, beside things the user did that they would: a milestone, a change, a
 * first, something that will matter later. Written for tuning the topic model's `none` class
 * (scripts/train-topic.ts) and its keep margin.
 */
import { labelled } from '../speech/corpus-a';

export const DEV_MOMENT = labelled('passing remark, more', [
  ['I had cereal for dinner again.'],
  ['just spilled tea on my jeans'],
  ['I overslept this morning.'],
  ['I forgot my keys at home today.'],
  ['missed my train by like ten seconds'],
  ['I had a headache all afternoon.'],
  ['I ordered takeaway tonight.'],
  ['I did the laundry this morning.'],
  ['got stuck in traffic for an hour'],
  ['I dropped my phone in the sink.'],
  ['I ate a whole bag of crisps last night.'],
  ['I walked the long way home today.'],
  ['I fell asleep on the sofa.'],
  ['i had two coffees already'],
  ['I locked myself out this morning lol'],
  ['I went to bed really late last night.'],
  ['I got caught in the rain.'],
  ['I washed the car today.'],
  ['I bought milk on the way home.'],
  ['I had leftovers for lunch.'],
  ['I vacuumed the whole flat.'],
  ['I was stuck in a queue for ages.'],
  ['I took a nap after lunch.'],
  ['made soup tonight'],
  ['I lost my pen again.'],
  ['I burnt my tongue on my coffee.'],
  ['I forgot to charge my phone.'],
  ['i left the oven on lol'],
  ['I watched some TV and went to sleep.'],
  ['I had a sandwich at my desk.'],
]);

export const DEV_LASTING = labelled('durable event', [
  ['I passed my driving test yesterday!', 'event: The user passed their driving test on 7 May 2023.'],
  ['I got engaged last weekend.', 'relationship: The user got engaged on the weekend of 6 May 2023.'],
  ['I adopted a rescue greyhound last month.', 'pets: The user adopted a rescue greyhound in April 2023.'],
  ['I graduated from nursing school last year.', 'education: The user graduated from nursing school in 2022.'],
  ['I ran my first 10k this morning!', 'event: The user ran their first 10k on 8 May 2023.'],
  ['I started a new job at a hospital last week.', 'event: The user started a new job at a hospital in the week of 1 May 2023.'],
  ['I had knee surgery last month.', 'health: The user had knee surgery in April 2023.'],
  ['I bought my first house last year.', 'event: The user bought their first house in 2022.'],
  ['I joined a climbing gym last week.', 'event: The user joined a climbing gym in the week of 1 May 2023.'],
  ['I won a chess tournament yesterday.', 'event: The user won a chess tournament on 7 May 2023.'],
  ['I got my citizenship last month.', 'event: The user got their citizenship in April 2023.'],
  ['I broke my wrist last week.', 'health: The user broke their wrist in the week of 1 May 2023.'],
  ['I finished my PhD last year.', 'education: The user finished their PhD in 2022.'],
  ['I signed up for a marathon in October.', 'plan: The user signed up for a marathon in October.'],
  ['I published my first novel last month.', 'event: The user published their first novel in April 2023.'],
  ['I got promoted to team lead yesterday.', 'event: The user got promoted to team lead on 7 May 2023.'],
]);
