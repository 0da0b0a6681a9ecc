/**
 * The demo page in headless Chromium: built with Vite, served by `vite preview`, driven the
 * way a person would use it. Each walkthrough step is checked against what the seed says
 * should happen, and a full-page screenshot per step goes to artifacts/ for a human look.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MEMORIES_PREAMBLE } from '../../src/inject/inject';
import { SEED_SYSTEM } from '../../scripts/seed-sessions';
import { collectConsoleErrors, type ConsoleProblems, type LaunchedBrowser, type Served } from './browser';
import { active as activeOn, idle as idleOn, ready, resetAnswering, startDemo, storeOwner as storeOwnerOf, type Screenshots } from './demo-page';

interface InvalidView {
  id: string;
  topic: string;
  content: string;
  supersededBy: string | undefined;
  erased: boolean;
}

let served: Served;
let browser: LaunchedBrowser;
let page: Page;
let problems: ConsoleProblems;
let shots: Screenshots;
let launchError: unknown;

const screenshot = (name: string, target: Page = page) => shots.take(target, name);
const idle = () => idleOn(page);
const active = () => activeOn(page);
const storeOwner = () => storeOwnerOf(page);

/** Clicks "Next step" and waits until step `done` finished and the store was redrawn. */
async function nextStep(done: number, name: string) {
  await page.getByTestId('next-step').click();
  await page.waitForFunction((count) => {
    const button = document.querySelector<HTMLElement>('[data-testid="next-step"]');
    return button?.dataset['done'] === String(count) && !document.body.classList.contains('busy');
  }, done);
  expect(await page.getByTestId('error').isHidden()).toBe(true);
  await screenshot(`step-${done}-${name}`);
}

async function invalid(): Promise<InvalidView[]> {
  return page.$$eval('[data-testid="invalid-memory"]', (cards) =>
    cards.map((card) => {
      const element = card as HTMLElement;
      return {
        id: element.dataset['id'] ?? '',
        topic: element.dataset['topic'] ?? '',
        content: card.querySelector('[data-testid="memory-content"]')?.textContent ?? '',
        supersededBy: element.dataset['supersededBy'],
        erased: element.dataset['erased'] === 'true',
      };
    }),
  );
}

async function operations(): Promise<{ action: string; content: string; reason: string }[]> {
  return page.$$eval('[data-testid="step"] [data-testid="operation"]', (rows) =>
    rows.map((row) => ({
      action: (row as HTMLElement).dataset['action'] ?? '',
      content: row.querySelector('[data-testid="operation-content"]')?.textContent ?? '',
      reason: row.querySelector('[data-testid="operation-reason"]')?.textContent ?? '',
    })),
  );
}

/** The turns the shown write kept in the user's words (episodes), each as `<action> <words>`. */
async function keptTurns(scope = '[data-testid="step"]'): Promise<string[]> {
  return page.$$eval(`${scope} [data-testid="kept-turn"]`, (rows) => rows.map((row) => `${(row as HTMLElement).dataset['action']} ${row.querySelector('q')?.textContent ?? ''}`));
}

/** The turns the store panel lists as kept in the user's words, active ones. */
const storedTurns = () => page.$$eval('[data-testid="active-episode"] [data-testid="episode-content"]', (rows) => rows.map((row) => row.textContent ?? ''));

async function hits(scope: string): Promise<{ content: string; top: boolean }[]> {
  return page.$$eval(`${scope} [data-testid="hit"]`, (rows) => rows.map((row) => ({ content: row.querySelector('[data-testid="hit-content"]')?.textContent ?? '', top: (row as HTMLElement).dataset['top'] === 'true' })));
}

beforeAll(async () => {
  try {
    ({ served, browser, page, problems, shots } = await startDemo('demo'));
  } catch (error) {
    launchError = error;
  }
});

// A missing browser fails every test with the install hint: a failing beforeAll would only
// mark them skipped, and a skipped browser test reads like a passing run.
beforeEach(() => {
  if (launchError) throw launchError;
});

afterAll(async () => {
  await browser?.close();
  await served?.close();
});

describe('demo page', () => {
  it('starts with compute in a module worker and an empty store', async () => {
    expect(await page.getByTestId('compute-location').getAttribute('data-location')).toBe('worker');
    expect(await page.getByTestId('compute-location').textContent()).toContain('Worker');
    expect(await active()).toEqual([]);
    await screenshot('start');
  });

  it('creates three facts from session 1, and keeps its two user turns in her words, not as facts', async () => {
    await nextStep(1, 'session-1');
    expect((await operations()).map((operation) => operation.action)).toEqual(['CREATE', 'CREATE', 'CREATE']);
    expect(await keptTurns()).toEqual(["CREATE Hi! I'm vegetarian, so keep that in mind for any meal bookings. Call me Ada.", 'CREATE For flights, I prefer the aisle seat.']);
    expect(await page.getByTestId('active-count').textContent()).toBe('3');
    expect(await page.getByTestId('episode-count').textContent()).toBe('2');
    expect((await storedTurns()).sort()).toEqual(['For flights, I prefer the aisle seat.', "Hi! I'm vegetarian, so keep that in mind for any meal bookings. Call me Ada."]);
    const memories = await active();
    expect(memories.map((memory) => memory.content).sort()).toEqual(['The user follows a vegetarian diet.', 'The user goes by Ada.', 'The user prefers aisle seating on flights.']);
    expect(memories.every((memory) => memory.confidence === '0.65' && memory.sources.join() === 's1')).toBe(true);
    expect(await page.getByTestId('conversation').textContent()).toContain('For flights, I prefer the aisle seat.');
  });

  it('corroborates instead of duplicating in session 2 (NOOP, confidence 0.70)', async () => {
    await nextStep(2, 'session-2');
    const [operation, ...rest] = await operations();
    expect(rest).toEqual([]);
    expect(operation).toMatchObject({ action: 'NOOP', content: 'The user follows a vegetarian diet.' });
    // The restating turn is kept in her words, behind the same fact.
    expect(await keptTurns()).toEqual(["CREATE As I said before, I'm a vegetarian."]);
    expect(await page.getByTestId('episode-count').textContent()).toBe('3');
    const diet = (await active()).filter((memory) => memory.topic === 'diet');
    expect(diet).toHaveLength(1);
    expect(diet[0]).toMatchObject({ content: 'The user follows a vegetarian diet.', confidence: '0.70', sources: ['s1', 's2'] });
    expect(await active()).toHaveLength(3);
  });

  it('replaces the vegetarian memory with the fish one in session 3, lineage drawn', async () => {
    await nextStep(3, 'session-3');
    expect((await operations()).map((operation) => operation.action)).toEqual(['UPDATE']);
    expect(await keptTurns()).toEqual(["CREATE Quick update: I've started eating fish again."]);
    // The two turns that said she is vegetarian retire with the fact they stated: none shows as current.
    expect((await storedTurns()).sort()).toEqual(['For flights, I prefer the aisle seat.', "Quick update: I've started eating fish again."]);
    expect(await page.getByTestId('invalid-episode').count()).toBe(2);
    const diet = (await active()).filter((memory) => memory.topic === 'diet');
    expect(diet).toHaveLength(1);
    const fish = diet[0]!;
    expect(fish).toMatchObject({ content: 'The user eats fish again.', confidence: '0.90', sources: ['s1', 's2', 's3'] });
    const vegetarian = (await invalid()).find((memory) => memory.content === 'The user follows a vegetarian diet.');
    expect(vegetarian?.supersededBy).toBe(fish.id);
    const edge = page.locator(`[data-testid="lineage-edge"][data-from="${vegetarian!.id}"][data-to="${fish.id}"]`);
    expect(await edge.count()).toBe(1);
    const inherited = await edge.locator('.lineage-node.new .chip.inherited').evaluateAll((chips) => chips.map((chip) => (chip as HTMLElement).dataset['sourceId']));
    expect(inherited).toEqual(['s1', 's2']);
    expect(await edge.locator('.lineage-node.new .chip.new').getAttribute('data-source-id')).toBe('s3');
    // The wires are drawn: the main arrow plus one curve per inherited source.
    expect(await edge.locator('svg.wires path.inherit').count()).toBe(2);
  });

  it('ranks the diet memory first for the dietary query', async () => {
    await nextStep(4, 'query-diet');
    const ranked = await hits('[data-testid="step"]');
    expect(ranked[0]?.content).toBe('The user eats fish again.');
    // k (3) is a maximum: the name memory shares nothing with the dietary query, so it does not pad the top.
    expect(ranked.filter((hit) => hit.top).map((hit) => hit.content)).not.toContain('The user goes by Ada.');
    expect(ranked.filter((hit) => hit.top)).toHaveLength(2);
    expect(await page.getByTestId('injected-context').textContent()).toContain('<MEMORIES>');
  });

  it('ranks the seat memory first for the seat query', async () => {
    await nextStep(5, 'query-seat');
    expect((await hits('[data-testid="step"]'))[0]?.content).toBe('The user prefers aisle seating on flights.');
  });

  it('answers the lunch query with the diet memory first (the semantic channel: "lunch" ~ "eats"), and no padding: the name is not about lunch', async () => {
    await nextStep(6, 'query-lunch');
    const ranked = await hits('[data-testid="step"]');
    expect(ranked[0]?.content).toBe('The user eats fish again.');
    expect(ranked.map((hit) => hit.content)).not.toContain('The user goes by Ada.');
  });

  it('shows nothing for the second user', async () => {
    await nextStep(7, 'isolation');
    expect(await hits('[data-testid="step"]')).toEqual([]);
    expect(await page.getByTestId('no-hits').isVisible()).toBe(true);
    expect(await storeOwner()).toBe('u_bob');
    expect(await active()).toEqual([]);
  });

  it('shows memory.inject output exactly as the context for the next turn', async () => {
    await nextStep(8, 'context');
    expect(await page.locator('[data-testid="step"] [data-testid="injected-context"]').textContent()).toBe(
      [SEED_SYSTEM, '', '<MEMORIES>', MEMORIES_PREAMBLE, '- [confidence: low, source: user_implicit] The user prefers aisle seating on flights.', '</MEMORIES>'].join('\n'),
    );
  });

  it('erases the two s1-only memories and rebuilds the fish memory from s2 and s3 when s1 is revoked', async () => {
    await nextStep(9, 'revoke-s1');
    expect(await page.getByTestId('erased').count()).toBe(2);
    expect(await page.getByTestId('turns-erased').textContent()).toBe("1 turn kept in u_ada's words (an episode) came from s1: it is erased with it.");
    expect(await storedTurns()).toEqual(["Quick update: I've started eating fish again."]);
    const memories = await active();
    expect(memories).toHaveLength(1);
    expect(memories[0]).toMatchObject({ content: 'The user eats fish again.', sources: ['s2', 's3'] });
    const erased = (await invalid()).filter((memory) => memory.erased);
    expect(erased.map((memory) => memory.topic).sort()).toEqual(['identity', 'travel']);
    const html = await page.getByTestId('store').innerHTML();
    expect(html).not.toContain('The user goes by Ada.');
    expect(html).not.toContain('aisle seating');
    expect(await page.getByTestId('step-status').textContent()).toBe('All 9 steps done');
  });

  it('keeps the store and the walkthrough across a reload', async () => {
    const before = await active();
    await page.reload();
    await ready(page);
    expect(await active()).toEqual(before);
    expect(await page.getByTestId('next-step').getAttribute('data-done')).toBe('9');
    expect(await page.getByTestId('compute-location').getAttribute('data-location')).toBe('worker');
    await screenshot('after-reload');
  });

  it('ingests, retrieves and revokes as another user, without touching the first user', async () => {
    await page.getByTestId('pg-user').fill('u_carol');
    await page.getByTestId('pg-session').fill('c1');
    await page.getByTestId('pg-source-type').selectOption('user_explicit');
    await page.getByTestId('pg-messages').fill('Call me Zed.\nassistant: Call me Hal.\nI prefer the window seat.');
    await page.getByTestId('pg-ingest').click();
    await page.waitForFunction(() => document.querySelector<HTMLElement>('[data-testid="store"]')?.dataset['owner'] === 'u_carol');
    await idle();
    expect((await active()).map((memory) => memory.content).sort()).toEqual(['The user goes by Zed.', 'The user prefers window seating on flights.']);
    // Each capped by its rule's confidence and by the trust of user_explicit (0.90).
    expect((await active()).map((memory) => [memory.sources.join(), memory.confidence]).sort()).toEqual([
      ['c1', '0.85'],
      ['c1', '0.90'],
    ]);
    expect(await page.locator('[data-testid="pg-result"] [data-testid="operation"]').count()).toBe(2);
    expect(await keptTurns('[data-testid="pg-result"]')).toEqual(['CREATE Call me Zed.', 'CREATE I prefer the window seat.']);

    await page.getByTestId('pg-query').fill('what seat should I book on the flight?');
    await page.getByTestId('pg-ask').click();
    await page.locator('[data-testid="pg-result"] [data-testid="retrieval"]').waitFor();
    expect((await hits('[data-testid="pg-result"]'))[0]?.content).toBe('The user prefers window seating on flights.');
    await screenshot('try-your-own');

    await page.getByTestId('pg-revoke-id').fill('c1');
    await page.getByTestId('pg-revoke').click();
    await page.locator('[data-testid="pg-result"] [data-testid="forget-report"]').waitFor();
    await idle();
    expect(await page.locator('[data-testid="pg-result"] [data-testid="erased"]').count()).toBe(2);
    expect(await active()).toEqual([]);

    await page.getByTestId('store-owner').selectOption('u_ada');
    await page.waitForFunction(() => document.querySelector<HTMLElement>('[data-testid="store"]')?.dataset['owner'] === 'u_ada');
    await idle();
    expect((await active()).map((memory) => memory.content)).toEqual(['The user eats fish again.']);
  });

  it('moves the simulated clock forward, shows decay, and keeps the offset across a reload', async () => {
    const before = (await active())[0]!;
    const offsetBefore = await page.getByTestId('clock-offset').textContent();
    await page.getByTestId('clock-6-months').click();
    await page.waitForFunction((text) => document.querySelector('[data-testid="clock-offset"]')?.textContent !== text, offsetBefore);
    await idle();
    const after = (await active())[0]!;
    expect(after.decayed).toBeLessThan(before.decayed);
    expect(after.confidence).toBe(before.confidence);
    await screenshot('clock-six-months');
    const offsetAfter = await page.getByTestId('clock-offset').textContent();
    await page.reload();
    await ready(page);
    expect(await page.getByTestId('clock-offset').textContent()).toBe(offsetAfter);
    expect((await active())[0]!.decayed).toBe(after.decayed);
  });

  it('fits a phone-width screen without horizontal overflow', async () => {
    const phone = await browser.context.newPage();
    const phoneConsole = collectConsoleErrors(phone);
    await phone.setViewportSize({ width: 390, height: 844 });
    await phone.goto(served.url);
    await ready(phone);
    // u_ada's store has the lineage graph, the widest thing on the page.
    await phone.getByTestId('store-owner').selectOption('u_ada');
    await phone.waitForFunction(() => document.querySelector<HTMLElement>('[data-testid="store"]')?.dataset['owner'] === 'u_ada' && !document.body.classList.contains('busy'));
    expect(await phone.getByTestId('lineage-edge').count()).toBeGreaterThan(0);
    const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot('phone', phone);
    await phone.getByTestId('lineage').screenshot({ path: shots.path('phone-lineage') });
    await phone.close();
    expect(phoneConsole.errors).toEqual([]);
  });

  it('resets to an empty store once Reset is confirmed', async () => {
    await resetAnswering(page, 'confirm');
    expect(await page.getByTestId('next-step').getAttribute('data-done')).toBe('0');
    expect(await active()).toEqual([]);
    expect(await page.getByTestId('clock-offset').textContent()).toBe('real time');
    await page.reload();
    await ready(page);
    expect(await active()).toEqual([]);
  });

  it('logged no console errors', () => {
    expect(problems.errors).toEqual([]);
  });
});
