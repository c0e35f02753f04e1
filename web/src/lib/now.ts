import { useSyncExternalStore } from 'react';

// One shared ticker for every relative time on screen, instead of a timer per cell.
const TICK_MS = 5000;
let now = Date.now();
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | undefined;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (timer === undefined) {
    now = Date.now();
    timer = setInterval(() => {
      now = Date.now();
      listeners.forEach((l) => l());
    }, TICK_MS);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer !== undefined) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

/** The current time, refreshed every few seconds; re-renders the caller on each tick. */
export function useNow(): number {
  return useSyncExternalStore(subscribe, () => now);
}
