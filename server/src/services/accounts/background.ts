/**
 * Work a request starts but does not wait for (a reset mail): the answer then takes as long
 * whether or not the address has an account. Tests and shutdown wait for it with `settled`.
 */
const pending = new Set<Promise<void>>();

export function inBackground(task: () => Promise<void>): void {
  const p: Promise<void> = task()
    .catch(() => undefined)
    .finally(() => pending.delete(p));
  pending.add(p);
}

/** Resolves once every background task started so far (and any they started) has ended. */
export async function backgroundSettled(): Promise<void> {
  while (pending.size > 0) await Promise.allSettled([...pending]);
}
