import { ServerEvent } from '@pagewatch/contract';

export interface ReceivedEvent {
  id: string | null;
  event: ServerEvent;
}

export interface EventStream {
  events: ReceivedEvent[];
  /** Resolves with the first event (already received or future) matching `pred`. */
  waitFor(pred: (e: ServerEvent) => boolean, timeoutMs?: number): Promise<ReceivedEvent>;
  close(): void;
}

/** A real SSE client over fetch, parsing frames as a browser's EventSource would. */
export async function openEventStream(
  baseUrl: string,
  lastEventId?: string,
  headers: Record<string, string> = {},
): Promise<EventStream> {
  const abort = new AbortController();
  const res = await fetch(`${baseUrl}/api/v1/events`, {
    headers: { ...headers, ...(lastEventId ? { 'last-event-id': lastEventId } : {}) },
    signal: abort.signal,
  });
  if (!res.ok || !res.body) throw new Error(`event stream answered ${res.status}`);
  const events: ReceivedEvent[] = [];
  const waiters = new Set<() => void>();
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  void (async () => {
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const fields = Object.fromEntries(
            frame
              .split('\n')
              .filter((l) => l && !l.startsWith(':'))
              .map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 1).trimStart()]),
          );
          if (fields.data) {
            events.push({
              id: fields.id ?? null,
              event: ServerEvent.parse(JSON.parse(fields.data)),
            });
            waiters.forEach((w) => w());
          }
        }
      }
    } catch {
      // aborted by close()
    }
  })();
  return {
    events,
    waitFor: (pred, timeoutMs = 10_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const hit = events.find((e) => pred(e.event));
          if (!hit) return false;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(hit);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(
              `no matching event within ${timeoutMs} ms; got ${JSON.stringify(events.map((e) => e.event.kind))}`,
            ),
          );
        }, timeoutMs);
        if (!check()) waiters.add(check);
      }),
    close: () => abort.abort(),
  };
}
