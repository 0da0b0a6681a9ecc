import { describe, expect, it } from 'vitest';
import { InputRow } from '../../src/storage/input-row';
import { writeInput } from '../../src/verbs/write-input';

const source = { type: 'user_explicit' as const, id: 's1' };
const messages = [{ role: 'user' as const, content: "I'm vegan." }];

describe('writeInput', () => {
  it('stores the app as owner (userId empty) and no session when the scope is app', () => {
    const input = writeInput('remember', { userId: 'ada', appName: 'trips', scope: 'app', source }, 5, { fact: { content: 'Free cancellation.', topic: 'policy' } });
    expect(input).toEqual({ userId: '', appName: 'trips', scope: 'app', sessionId: '', source, at: 5, kind: 'remember', messages: [], fact: { content: 'Free cancellation.', topic: 'policy' } });
  });

  it('keeps the caller as owner and the session when the scope is user or session', () => {
    expect(writeInput('ingest', { userId: 'ada', appName: 'trips', scope: 'user', sessionId: 'c1', source }, 7, { messages })).toEqual({
      userId: 'ada',
      appName: 'trips',
      scope: 'user',
      sessionId: 'c1',
      source,
      at: 7,
      kind: 'ingest',
      messages,
    });
    expect(writeInput('summary', { userId: 'ada', appName: 'trips', scope: 'session', sessionId: 'c1', source }, 7, { messages })).toMatchObject({ userId: 'ada', scope: 'session', sessionId: 'c1', kind: 'summary' });
  });

  it('builds what the stored-input schema reads back when any of the three writes builds it', () => {
    const built = [
      writeInput('ingest', { userId: 'ada', appName: 'trips', scope: 'user', sessionId: 'c1', source }, 1, { messages }),
      writeInput('summary', { userId: 'ada', appName: 'trips', scope: 'session', sessionId: 'c1', source }, 2, { messages }),
      writeInput('remember', { userId: 'ada', appName: 'trips', scope: 'user', source }, 3, { fact: { content: 'Likes tea.', topic: 'drink' } }),
      writeInput('remember', { userId: '', appName: 'trips', scope: 'app', source: { type: 'bootstrapped', id: 'kb' } }, 4, { fact: { content: 'Free cancellation.', topic: 'policy' } }),
    ];
    for (const input of built) expect(InputRow.parse(input)).toEqual(input);
  });
});
