/**
 * The demo's Models panel in headless Chromium: offline by default; switched to an
 * OpenAI-compatible endpoint (the loopback stub), ingestion goes through it with the key,
 * which is kept in sessionStorage and never in localStorage; Chrome's built-in model is
 * offered only where the Prompt API has a model (this Chromium's reports 'unavailable').
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatReply, startOpenAIStub, type OpenAIStub } from '../helpers/openai-stub';
import { collectConsoleErrors, DEMO_OUT_DIR, launchChromium, serveBuilt, type LaunchedBrowser, type Served } from './browser';
import { builtDemo } from './builds';

const FACT = { content: 'The user follows a vegetarian diet (from the endpoint).', topic: 'diet', confidence: 0.9, excerpt: "I'm vegetarian", importance: 0.6, halfLifeDays: 400 };

let served: Served;
let browser: LaunchedBrowser;
let stub: OpenAIStub;
let page: Page;

beforeAll(async () => {
  stub = await startOpenAIStub();
  stub.reply('/v1/chat/completions', (request) =>
    String((request.body['response_format'] as { json_schema?: { name?: string } }).json_schema?.name) === 'engram_decision'
      ? chatReply({ action: 'CREATE', targetId: null, corroborates: false, reason: 'the endpoint saw nothing like it' })
      : chatReply({ memories: [FACT] }),
  );
  served = await serveBuilt(builtDemo());
  browser = await launchChromium();
  page = await browser.context.newPage();
  await page.goto(served.url);
  await page.waitForSelector('body[data-ready="true"]');
});

afterAll(async () => {
  await browser?.close();
  await served?.close();
  await stub?.close();
});

describe('demo Models panel', () => {
  it('starts offline and offers Chrome’s built-in model only where the Prompt API has one', async () => {
    await expect(page.getByTestId('models-status').textContent()).resolves.toContain('Offline');
    expect(await page.getByTestId('models-offline').isChecked()).toBe(true);
    const api = await page.evaluate(async () => {
      const model = (globalThis as { LanguageModel?: { availability(): Promise<string> } }).LanguageModel;
      return model ? await model.availability() : 'missing';
    });
    if (api !== 'missing') await page.waitForFunction((state) => document.querySelector('[data-testid="models-status"]')?.textContent?.includes(`Chrome’s model: ${state}`), api);
    expect(await page.getByTestId('models-chrome').isDisabled()).toBe(api === 'missing' || api === 'unavailable');
  });

  it('ships no copy of transformers.js or ONNX Runtime in the demo build, which never hosts a model', () => {
    const assets = readdirSync(join(DEMO_OUT_DIR, 'assets'));
    expect(assets.filter((name) => /transformers|ort-wasm/.test(name))).toEqual([]);
    // No script or wasm near ONNX Runtime's size (its smallest wasm is several MB). The semantic
    // table (wordnet-concepts-*.bin, 1.7 MB of typed arrays) is data, checked by its own budget.
    const code = assets.filter((name) => /\.(js|mjs|wasm)$/.test(name));
    expect(code.length).toBeGreaterThan(0);
    expect(Math.max(...code.map((name) => statSync(join(DEMO_OUT_DIR, 'assets', name)).size))).toBeLessThan(1_000_000);
    expect(assets.filter((name) => !/\.(js|mjs|wasm|css|txt|bin)$/.test(name))).toEqual([]);
  });

  it('extracts and decides through the endpoint after Apply, the key kept in sessionStorage only', async () => {
    const problems = collectConsoleErrors(page);
    await page.getByTestId('models-openai').check();
    await page.getByTestId('models-base-url').fill(stub.baseURL);
    await page.getByTestId('models-model').fill('stub-chat');
    await page.getByTestId('models-api-key').fill('sk-demo-secret');
    await page.getByTestId('models-apply').click();
    await page.waitForFunction(() => document.querySelector('[data-testid="models-status"]')?.textContent?.includes('stub-chat'));

    await page.getByTestId('pg-user').fill('u_dora');
    await page.getByTestId('pg-messages').fill("I'm vegetarian");
    await page.getByTestId('pg-ingest').click();
    await page.waitForFunction((text) => document.querySelector('[data-testid="store"]')?.textContent?.includes(text), FACT.content);

    const [extraction, decision] = stub.requests;
    expect(extraction!.headers['authorization']).toBe('Bearer sk-demo-secret');
    expect(extraction!.body).toMatchObject({ model: 'stub-chat', response_format: { type: 'json_schema', json_schema: { name: 'engram_extraction' } } });
    expect(decision!.body).toMatchObject({ response_format: { json_schema: { name: 'engram_decision' } } });
    const stored = await page.evaluate(() => ({ session: JSON.stringify({ ...sessionStorage }), local: JSON.stringify({ ...localStorage }) }));
    expect(stored.session).toContain('sk-demo-secret');
    expect(stored.local).not.toContain('sk-demo-secret');
    expect(problems.errors).toEqual([]);
  });
});
