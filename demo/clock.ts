/**
 * The simulated clock handed to createMemory: real time plus an offset the page controls
 * ("+1 month", the walkthrough's "six months later"). The offset lives in localStorage so a
 * reload keeps the simulated date and the decay it shows, and every tab of the page shares it
 * (a tab calls `refresh()` when another one wrote it). It only ever moves forward.
 */
export const DAY_MS = 86_400_000;
const OFFSET_KEY = 'engram-demo:clock-offset';

export interface SimulatedClock {
  /** Ms since epoch as engram sees it. */
  now(): number;
  /** Simulated minus real time. */
  offset(): number;
  advance(ms: number): void;
  /** Moves forward to `time` if it is in the future; never backwards. */
  advanceTo(time: number): void;
  reset(): void;
  /** Re-reads the offset from storage, where another tab may have moved it. */
  refresh(): void;
  onChange(listener: () => void): void;
}

export function createSimulatedClock(storage: Storage = localStorage): SimulatedClock {
  const stored = () => {
    const value = Number(storage.getItem(OFFSET_KEY) ?? 0);
    return Number.isFinite(value) && value >= 0 ? value : 0;
  };
  let offset = stored();
  const listeners: (() => void)[] = [];
  const notify = () => {
    for (const listener of listeners) listener();
  };
  const set = (value: number) => {
    offset = value;
    storage.setItem(OFFSET_KEY, String(offset));
    notify();
  };
  const clock: SimulatedClock = {
    now: () => Date.now() + offset,
    offset: () => offset,
    advance: (ms) => set(offset + Math.max(0, ms)),
    advanceTo: (time) => {
      const ahead = time - clock.now();
      if (ahead > 0) set(offset + ahead);
    },
    reset: () => set(0),
    refresh: () => {
      const value = stored();
      if (value === offset) return;
      offset = value;
      notify();
    },
    onChange: (listener) => void listeners.push(listener),
  };
  return clock;
}

/** `2026-08-07 20:11` in UTC, the way the walkthrough prints times. */
export function formatTime(ms: number): string {
  return new Date(ms).toISOString().replace('T', ' ').slice(0, 16);
}
