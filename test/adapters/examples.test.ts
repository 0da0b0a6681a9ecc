/**
 * The adapter examples run as a user runs them (`tsx examples/<name>.ts`) and print what they
 * promise: a mem0 script working unchanged but for its import, and a chat loop that remembers.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const tsx = join(process.cwd(), 'node_modules', '.bin', 'tsx');

describe('examples', () => {
  it('runs examples/mem0-switch.ts to its mem0-shaped output when executed with tsx', async () => {
    const { stdout } = await run(tsx, ['examples/mem0-switch.ts'], { timeout: 60_000 });
    expect(stdout).toContain('"memory": "The user follows a vegetarian diet."');
    expect(stdout).toMatch(/"hash": "[0-9a-f]{32}"/);
    expect(stdout).toContain("action: 'UPDATE'");
    // The diet memory is gone; the name that came from the same message is put back.
    const kept = JSON.parse(/^after delete: (.*)$/m.exec(stdout)![1]!) as string[];
    expect(kept.sort()).toEqual(['The user goes by Ada.', 'The user prefers aisle seating on flights.']);
  });

  it('runs examples/ai-sdk-chat.ts and answers the last turn from memory when executed with tsx', async () => {
    const { stdout } = await run(tsx, ['examples/ai-sdk-chat.ts'], { timeout: 60_000 });
    const last = stdout
      .split('\n')
      .filter((line) => line.startsWith('assistant: '))
      .at(-1);
    expect(last).toContain('The user prefers aisle seating on flights.');
    expect(last).toContain('The user follows a vegetarian diet.');
    // Memories written by one ingest share a timestamp, so list() order among them is by id.
    const stored = JSON.parse(/^stored: (.*)$/m.exec(stdout)![1]!) as string[];
    expect(stored.sort()).toEqual(['The user follows a vegetarian diet.', 'The user goes by Ada.', 'The user prefers aisle seating on flights.']);
  });
});
