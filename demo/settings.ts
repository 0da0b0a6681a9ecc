/**
 * The "Models" panel: which extractor and decider the demo's memory uses. Offline (the rule
 * extractor and the seed's policy) by default, so the walkthrough runs without any network;
 * or an OpenAI-compatible endpoint (OpenAI, Ollama, LM Studio, vLLM) for extraction and
 * decisions; or Chrome's built-in model for extraction where the browser has one. The API
 * key lives in sessionStorage only: gone when the tab closes, never in localStorage.
 */
import { chromeExtractor } from '../src/adapters/chrome-ai';
import { openAIDecider, openAIExtractor } from '../src/adapters/openai';
import type { MemoryOptions } from '../src/index';
import { h, mount } from './dom';

export type ModelChoice = 'offline' | 'openai' | 'chrome';

export interface ModelSettings {
  choice: ModelChoice;
  baseURL: string;
  model: string;
  apiKey: string;
}

const KEY = 'engram-demo:models';
const DEFAULTS: ModelSettings = { choice: 'offline', baseURL: 'http://localhost:11434/v1', model: 'llama3.1', apiKey: '' };

/** The saved settings of this tab (sessionStorage), or the offline defaults. */
export function loadModelSettings(storage: Storage = sessionStorage): ModelSettings {
  try {
    const saved = JSON.parse(storage.getItem(KEY) ?? 'null') as Partial<ModelSettings> | null;
    return { ...DEFAULTS, ...saved };
  } catch {
    // A value another version of the page wrote: start from the defaults rather than fail to open.
    return { ...DEFAULTS };
  }
}

export function saveModelSettings(settings: ModelSettings, storage: Storage = sessionStorage): void {
  storage.setItem(KEY, JSON.stringify(settings));
}

/** What createMemory gets for these settings: nothing (offline), or the adapters. */
export function modelOptions(settings: ModelSettings = loadModelSettings()): Pick<MemoryOptions, 'extractor' | 'decider'> {
  if (settings.choice === 'chrome') return { extractor: chromeExtractor() };
  if (settings.choice !== 'openai') return {};
  const endpoint = { baseURL: settings.baseURL, model: settings.model, ...(settings.apiKey ? { apiKey: settings.apiKey } : {}), timeoutMs: 60_000 };
  return { extractor: openAIExtractor(endpoint), decider: openAIDecider(endpoint) };
}

function field(label: string, input: HTMLInputElement) {
  return h('label', { class: 'setting' }, h('span', {}, label), input);
}

/**
 * Adds the panel above the store panel. `apply` reopens the memory with the new settings;
 * the panel reports Chrome's availability so "downloadable" can be acted on with a click.
 */
export function installModelSettings(apply: () => Promise<boolean>): HTMLElement {
  const settings = loadModelSettings();
  const radio = (value: ModelChoice, label: string, disabled = false) =>
    h('label', { class: 'setting' }, h('input', { type: 'radio', name: 'model-choice', value, checked: settings.choice === value, disabled, 'data-testid': `models-${value}` }), ' ', label);
  const baseURL = h('input', { name: 'base-url', value: settings.baseURL, autocomplete: 'off', 'data-testid': 'models-base-url' });
  const model = h('input', { name: 'model', value: settings.model, autocomplete: 'off', 'data-testid': 'models-model' });
  const apiKey = h('input', { name: 'api-key', type: 'password', value: settings.apiKey, autocomplete: 'off', placeholder: 'kept in this tab only', 'data-testid': 'models-api-key' });
  const status = h('p', { class: 'muted', 'data-testid': 'models-status' }, describe(settings));
  const hasChrome = typeof (globalThis as { LanguageModel?: unknown }).LanguageModel === 'object' || typeof (globalThis as { LanguageModel?: unknown }).LanguageModel === 'function';
  const form = h(
    'form',
    {
      onsubmit: (event: Event) => {
        event.preventDefault();
        const choice = (new FormData(form).get('model-choice') as ModelChoice | null) ?? 'offline';
        const next = { choice, baseURL: baseURL.value.trim(), model: model.value.trim(), apiKey: apiKey.value };
        saveModelSettings(next);
        void apply().then((ok) => (status.textContent = ok ? describe(next) : 'Not applied: see the error below.'));
      },
    },
    radio('offline', 'Offline: engram’s own extractor and policy (default)'),
    radio('openai', 'OpenAI-compatible endpoint for extraction and decisions'),
    h('div', { class: 'settings-endpoint' }, field('base URL', baseURL), field('model', model), field('API key', apiKey)),
    radio('chrome', hasChrome ? 'Chrome’s built-in model for extraction' : 'Chrome’s built-in model (not in this browser)', !hasChrome),
    h('button', { type: 'submit', 'data-testid': 'models-apply' }, 'Apply'),
    status,
  );
  const panel = h('section', { class: 'panel', id: 'models', 'aria-labelledby': 'models-title' }, h('header', { class: 'panel-head' }, h('h2', { id: 'models-title' }, 'Models')), form);
  document.querySelector('.store-column')?.prepend(panel);
  if (hasChrome) {
    void chromeExtractor()
      .availability()
      .then((state) => {
        mount(status, describe(settings), ` · Chrome’s model: ${state}`);
        // The API can exist with no model behind it (Chromium): nothing to choose then.
        if (state === 'unavailable') form.querySelector<HTMLInputElement>('input[value="chrome"]')!.disabled = true;
      });
  }
  return panel;
}

function describe(settings: ModelSettings): string {
  if (settings.choice === 'openai') return `Using ${settings.model} at ${settings.baseURL}${settings.apiKey ? ' (key in this tab only)' : ''}.`;
  if (settings.choice === 'chrome') return 'Using Chrome’s built-in model for extraction.';
  return 'Offline: nothing leaves the browser.';
}
