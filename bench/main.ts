// The browser side of `npm run bench:browser`: the shared benchmark on real IndexedDB with
// compute in a module Worker. Sizes come from `?sizes=1000,10000`; the result is left on
// `window.__engramBench` for the driver (scripts/bench-browser.ts).
import { EngramDatabase } from '../src/store/database';
import { createComputeClient } from '../src/worker/client';
import { runBench, runCodesBench, type BenchEnvironment } from '../scripts/bench-core';
import { LONG_USER_SIZES, runLongUserBench } from '../scripts/bench-long';
import { runSealedBench, SEALED_SIZES } from '../scripts/bench-sealed';
import { runSpeechBench } from '../scripts/bench-speech';
import { printTopicIngest } from '../scripts/bench-topic';
import { runPeersBench } from '../scripts/bench-peers';
import { browserPeers } from './peers-browser';

declare global {
  interface Window {
    __engramBench?: { failures: string[]; error?: string };
  }
}

const out = document.getElementById('out')!;
const params = new URLSearchParams(location.search);
const sizes = (params.get('sizes') ?? '1000,10000,100000').split(',').map(Number);
const longSizes = params.get('long')?.split(',').map(Number) ?? LONG_USER_SIZES;
const sealedSizes = params.get('sealed')?.split(',').map(Number) ?? SEALED_SIZES;
const sealedOnly = params.has('sealedOnly');
const chromium = /Chrom(?:e|ium)\/([\d.]+)/.exec(navigator.userAgent)?.[1] ?? 'unknown';
out.textContent = '';

const env: BenchEnvironment = {
  label: `Chromium ${chromium} (headless), real IndexedDB, compute in a module Worker`,
  sizes,
  memoryOptions: (name) => ({ name }),
  openDatabase: (name) => new EngramDatabase(name),
  computeClient: () => createComputeClient(),
  endToEndOnly: params.has('e2eOnly'),
  print: (line) => {
    console.log(line);
    out.textContent += line + '\n';
  },
};

(async () => {
  if (params.has('codesOnly')) return runCodesBench(env);
  if (params.has('peers')) return runPeersBench(env.print, sizes, browserPeers(`Chromium ${chromium}, main thread`)).then((): string[] => []);
  if (params.has('topicOnly')) return printTopicIngest(env).then((): string[] => []);
  await runSpeechBench(env);
  if (params.has('speechOnly')) return [];
  const failures = params.has('longOnly') || sealedOnly ? [] : await runBench(env);
  if (env.endToEndOnly) return failures;
  if (!params.has('noLong') && !sealedOnly) await runLongUserBench(env, longSizes);
  if (!params.has('longOnly')) await runSealedBench(env, sealedSizes);
  return failures;
})().then(
  (failures) => (window.__engramBench = { failures }),
  (error: unknown) => (window.__engramBench = { failures: ['bench crashed'], error: error instanceof Error ? `${error.message}\n${error.stack}` : String(error) }),
);
