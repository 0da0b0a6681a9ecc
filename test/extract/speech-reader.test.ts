/**
 * Issue 43, the speech reader on chat it was not written for: topics decided with the learned
 * model (src/extract/speech/classify.ts), passing remarks kept out, and the chat constructions
 * the reader reads. Each case is a sentence of the shape the issue reports, not one of its own.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { speechCandidates } from '../../src/extract/speech/extractor';
import { TOPIC_MODEL } from '../../src/extract/speech/topic-model';
import { SPOKEN_AT } from './speech/corpus';

const read = (message: string) => speechCandidates(message, SPOKEN_AT).map((fact) => `${fact.topic}: ${fact.content}`);

describe('the speech reader: topics', () => {
  it("files what the words are about under its topic, not under the construction's default (pets, diet)", () => {
    expect(read("I've got a beagle.")).toEqual(['pets: The user has a beagle.']);
    expect(read('I have a spaniel.')).toEqual(['pets: The user has a spaniel.']);
    expect(read('I went pescatarian in March.')).toEqual(['diet: The user went pescatarian in March.']);
  });

  it('keeps the topic a construction names, whatever the words after it', () => {
    expect(read('I live in Dogville.')).toEqual(['home: The user lives in Dogville.']);
    expect(read("I'm 34 years old.")).toEqual(['age: The user is 34 years old.']);
  });

  it('stores no passing remark of the day as a fact', () => {
    expect(read('I burned the toast this morning.')).toEqual([]);
    expect(read('made pancakes for breakfast')).toEqual([]);
  });
});

describe('the topic model', () => {
  it('is what scripts/train-topic.ts trains from the dev corpora, byte for byte', async () => {
    const { modelText } = await import('../../scripts/train-topic');
    const committed = readFileSync(new URL('../../src/extract/speech/topic-model.ts', import.meta.url), 'utf8');
    expect(modelText(TOPIC_MODEL.alpha, TOPIC_MODEL.bonus)).toBe(committed);
  });
});
