/**
 * The page's main-thread tasks from a Chrome DevTools Protocol trace (category `toplevel`), cut
 * into the bench's phases by its `performance.mark('bench:…')`s (category `blink.user_timing`).
 * A task gives its wall time (`dur`) and its thread's CPU time (`tdur`): on a loaded 2-core
 * machine a task that waited for a core is long in wall time only. Read by the embedder bench
 * (scripts/bench-embedder.ts) and scripts/profile-stalls.ts.
 */
import type { CDPSession } from 'playwright-core';

export type TraceEvent = { name: string; ph: string; ts: number; dur?: number; tdur?: number; tid: number; pid: number; args?: { name?: string } };

/** A main-thread task: when it began (µs, the trace's clock), its wall and CPU time (ms) and its phase. */
export interface Task {
  ts: number;
  wallMs: number;
  /** Undefined when the trace has no thread time. */
  cpuMs: number | undefined;
  phase: string;
}

/** Starts tracing the page's tasks and marks; `stop` ends it and resolves to the events. */
export async function traceTasks(cdp: CDPSession): Promise<{ stop(): Promise<TraceEvent[]> }> {
  const events: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', ({ value }) => events.push(...(value as unknown as TraceEvent[])));
  await cdp.send('Tracing.start', { transferMode: 'ReportEvents', traceConfig: { includedCategories: ['toplevel', '__metadata', 'blink.user_timing'], excludedCategories: ['*'] } });
  return {
    async stop() {
      const complete = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
      await cdp.send('Tracing.end');
      await complete;
      return events;
    },
  };
}

/** The bench's marks, in order: name without `bench:`, and when. */
export function marksOf(events: readonly TraceEvent[]): { phase: string; ts: number }[] {
  return events
    .filter((event) => event.name.startsWith('bench:'))
    .sort((a, b) => a.ts - b.ts)
    .map((event) => ({ phase: event.name.slice('bench:'.length), ts: event.ts }));
}

/**
 * The page's main-thread tasks of at least `overMs` wall time, each with its phase (the last mark
 * before it; `setup` before the first). The page's thread is the renderer main thread with the
 * most such tasks (the others are about:blank's).
 */
export function mainThreadTasks(events: readonly TraceEvent[], overMs = 0): Task[] {
  const over = overMs * 1000;
  const tasksOf = (thread: TraceEvent) => events.filter((e) => e.pid === thread.pid && e.tid === thread.tid && e.ph === 'X' && e.name === 'ThreadControllerImpl::RunTask' && (e.dur ?? 0) >= over);
  const main = events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain').sort((a, b) => tasksOf(b).length - tasksOf(a).length)[0];
  const marks = marksOf(events);
  const phaseOf = (ts: number) => marks.filter((mark) => mark.ts <= ts).pop()?.phase ?? 'setup';
  return (main ? tasksOf(main) : []).map((event) => ({ ts: event.ts, wallMs: event.dur! / 1000, cpuMs: event.tdur === undefined ? undefined : event.tdur / 1000, phase: phaseOf(event.ts) }));
}
