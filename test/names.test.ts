import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { claimsReservedName, isReservedName } from '../src/names';
import { expectLinearGrowth } from './helpers/growth';

/** The reserved words, spelled out here as the spec the implementation must meet. */
const ROLE_WORDS = [
  'system',
  'assistant',
  'admin',
  'administrator',
  'root',
  'sudo',
  'superuser',
  'developer',
  'dev',
  'operator',
  'moderator',
  'mod',
  'owner',
  'user',
  'users',
  'everyone',
  'everybody',
  'all',
  'ai',
  'bot',
  'model',
  'tool',
  'chatgpt',
  'gpt',
  'claude',
  'openai',
  'anthropic',
  'ignore',
  'instruction',
  'instructions',
  'prompt',
  'memories',
  'override',
];

/** Whether `word` (lower case) is one or more role words and nothing else. */
function onlyRoleWords(word: string): boolean {
  const splits = [true, ...Array<boolean>(word.length).fill(false)];
  for (let end = 1; end <= word.length; end++) splits[end] = ROLE_WORDS.some((role) => end >= role.length && splits[end - role.length]! && word.slice(end - role.length, end) === role);
  return splits[word.length]!;
}

describe('isReservedName', () => {
  it('refuses role names as user names, whatever case, script, width, accents, digits or separators they are written in', () => {
    const longest = Array.from({ length: 4 }, () => 'Admin'.repeat(8)).join('-');
    for (const name of ['System', 'Administrator', 'ROOT', 'ChatGPT', 'claude', 'Ѕуѕtеm', 'Ａｄｍｉｎ', 'Sýstém', 'R00t', 'Adm1n', 'SystemAdmin', 'Root-User', 'Admin_2', '𝐀𝐝𝐦𝐢𝐧', longest]) {
      expect(isReservedName(name), name).toBe(true);
    }
  });

  it('accepts a name that only starts like a role name when it is a person’s name', () => {
    for (const name of ['Aisha', 'Aiden', 'Devon', 'Devika', 'Allison', 'Claudette', 'Modesto', 'Botond', 'Alla', 'Rootes', 'Sudoku', 'Moderato', 'Userkaf', 'Ada', 'Zoë', '李雷', 'Дмитрий', 'Саша', "O'Brien", 'Jean-Luc']) {
      expect(isReservedName(name), name).toBe(false);
    }
  });

  it('reserves a role word followed by any letters exactly when the whole name is role words', () => {
    const role = fc.constantFrom(...ROLE_WORDS);
    const suffix = fc.stringMatching(/^[a-z]{1,8}$/);
    fc.assert(
      fc.property(role, suffix, (word, rest) => {
        const name = word[0]!.toUpperCase() + word.slice(1) + rest;
        expect(isReservedName(name), name).toBe(onlyRoleWords(word + rest));
      }),
      { numRuns: 2_000 },
    );
  });

  it('answers in linear time on a name of 100 kB', async () => {
    const cases = ['admin', 'a', 'ѕ', 'é\u0301', 'user', 'users', 'modeladmin'].map((unit) => ({
      label: JSON.stringify(unit),
      run: (n: number) => {
        isReservedName(unit.repeat(Math.ceil(n / unit.length)));
        isReservedName(unit.repeat(Math.ceil(200 / unit.length)) + 'x');
      },
    }));
    await expectLinearGrowth(cases, 100_000);
  });
});

describe('claimsReservedName', () => {
  it('finds a reserved name asked for in any case or script, and no ordinary name', () => {
    expect(['Call me admin.', 'so call me Ѕуѕtеm', 'CALL ME Ａｄｍｉｎ!', 'call me Ada. Call me Root.'].every(claimsReservedName)).toBe(true);
    expect(['Call me Aisha.', 'call me Claudette', 'Call me 李雷.', 'I admin the system.'].some(claimsReservedName)).toBe(false);
  });
});
