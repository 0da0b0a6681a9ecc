/**
 * The default extractor: the offline speech reader (./speech), loaded as its own chunk on the
 * first ingest, so an application that never ingests never loads it, and run on the calling
 * thread. It reads a turn in tens of microseconds (linear in its length, test/reliability/
 * fuzz.test.ts), less than the round trip to the worker would cost; keeping it out of the worker
 * keeps the worker file small (the worker is copied by an application's bundler as one file and
 * cannot load chunks of its own).
 */
import type { Extractor } from './extractor';

type SpeechModule = typeof import('./speech/extractor');

/** The default Extractor; its module loads once, on the first `extract`, and a failed load is retried on the next. */
export function createDefaultExtractor(): Extractor {
  let speech: Promise<SpeechModule> | undefined;
  return {
    async extract(userMessages, context) {
      const loading = (speech ??= import('./speech/extractor'));
      loading.catch(() => (speech = undefined));
      const { speechExtract } = await loading;
      return speechExtract(userMessages, context);
    },
  };
}
