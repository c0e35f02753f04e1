import type { ServerEvent } from '@pagewatch/contract';
import type { EventBridge } from '../db/event-bridge.js';
import type { EventHub } from './event-hub.js';
import type { Logger } from './logger.js';

/** What crosses between the processes of one machine (PAGEWATCH_WORKERS, ADR 25). */
export type IpcMessage =
  | { pw: 'events'; events: ServerEvent[] }
  | { pw: 'wake-cluster' }
  | { pw: 'wake-requests' }
  /** A worker's check results for the primary to write (SQLite's one writer; ADR 25). */
  | { pw: 'results'; seq: number; writes: unknown[] }
  | { pw: 'results-written'; seq: number }
  /** The primary's /metrics asks its workers for their registries (ADR 25). */
  | { pw: 'metrics-ask'; id: number }
  | { pw: 'metrics'; id: number; families: unknown[] }
  /** A worker's turn at SQLite's write lock, given out by the primary (db/write-turns.ts). */
  | { pw: 'turn-ask'; id: number }
  | { pw: 'turn-granted'; id: number }
  | { pw: 'turn-done'; id: number }
  /** A worker's per-monitor check counts since its last, for the primary to export. */
  | { pw: 'counts'; counts: unknown[] };

/** Answers the one process a message came from. */
export type IpcReply = (message: IpcMessage) => void;

/** One side of the channel: a worker's parent, or the primary's set of workers. */
export interface IpcLink {
  send(message: IpcMessage): void;
  onMessage(listener: (message: IpcMessage, reply?: IpcReply) => void): void;
  /** The other side went away (a worker's primary died); never for the primary's side. */
  onClose?(listener: () => void): void;
}

/** What one worker says that the others hear too; the rest is between it and the primary. */
const shared = new Set<IpcMessage['pw']>(['events', 'wake-cluster', 'wake-requests']);

interface Child {
  connected: boolean;
  send(message: unknown, callback: (err: Error | null) => void): boolean;
  on(event: 'message', listener: (message: unknown) => void): unknown;
  once(event: 'exit', listener: () => void): unknown;
}

const isIpcMessage = (m: unknown): m is IpcMessage =>
  typeof m === 'object' && m !== null && typeof (m as { pw?: unknown }).pw === 'string';

/**
 * The primary's side: every worker it forked. A message from one worker reaches the primary
 * and is passed on to the other workers, so the processes of a machine hear each other as
 * PostgreSQL's NOTIFY lets a fleet do.
 */
export class WorkerLinks implements IpcLink {
  private readonly children = new Set<Child>();
  private readonly listeners: ((message: IpcMessage, reply?: IpcReply) => void)[] = [];

  add(child: Child): void {
    this.children.add(child);
    const reply: IpcReply = (message) => sendTo(child, message);
    child.on('message', (message) => {
      if (!isIpcMessage(message)) return;
      for (const listener of this.listeners) listener(message, reply);
      if (!shared.has(message.pw)) return;
      for (const other of this.children) if (other !== child) sendTo(other, message);
    });
    child.once('exit', () => this.children.delete(child));
  }

  send(message: IpcMessage): void {
    for (const child of this.children) sendTo(child, message);
  }

  /** Workers connected now. */
  get size(): number {
    let n = 0;
    for (const child of this.children) if (child.connected) n += 1;
    return n;
  }

  onMessage(listener: (message: IpcMessage, reply?: IpcReply) => void): void {
    this.listeners.push(listener);
  }
}

function sendTo(child: Child, message: IpcMessage): void {
  // A worker that died or is exiting has closed its channel (EPIPE): it needs nothing more,
  // and the error must not take the primary down with it.
  if (child.connected) child.send(message, ignore);
}

const ignore = () => {};

/** A worker's side: its parent, over the channel `fork` opened; null when there is none. */
export function parentLink(proc: NodeJS.Process): IpcLink | null {
  const send = proc.send?.bind(proc);
  if (!send) return null;
  return {
    send: (message) => {
      if (proc.connected) send(message, undefined, undefined, ignore);
    },
    onMessage: (listener) =>
      proc.on('message', (message) => {
        if (isIpcMessage(message)) listener(message);
      }),
    // A listener that comes after the primary died (this worker was still starting) hears of
    // it at once: one that waited for the event would wait forever (turns, result acks).
    onClose: (listener) => {
      if (proc.connected) proc.once('disconnect', listener);
      else queueMicrotask(listener);
    },
  };
}

/**
 * The event bridge for the processes of one machine on SQLite: the same contract as the
 * PostgreSQL bridge (ADR 16), over IPC. Events are batched per turn of the event loop.
 * `keep` names kinds that stay in this process: the primary keeps every check result, which
 * its scheduler-only workers have no use for (a thousand a second at 100,000 monitors).
 */
export function bridgeOverIpc(
  link: IpcLink,
  hub: EventHub,
  logger: Logger,
  options: { keep?: ServerEvent['kind'][] } = {},
): EventBridge {
  const keep = new Set(options.keep ?? []);
  const stats = { received: 0, sent: 0, dropped: 0, reconnects: 0 };
  const remote = new WeakSet<ServerEvent>();
  const clusterListeners: (() => void)[] = [];
  const requestListeners: (() => void)[] = [];
  let queue: ServerEvent[] = [];
  let flushing: NodeJS.Immediate | null = null;
  let closed = false;

  link.onMessage((message) => {
    if (closed) return;
    try {
      if (message.pw === 'wake-cluster') for (const l of clusterListeners) l();
      else if (message.pw === 'wake-requests') for (const l of requestListeners) l();
      else if (message.pw === 'events') {
        for (const event of message.events) {
          remote.add(event);
          stats.received += 1;
          hub.publish(event);
        }
      }
    } catch (err) {
      logger.warn({ err }, 'ignored a malformed message from another process');
    }
  });
  const flush = () => {
    flushing = null;
    const events = queue;
    queue = [];
    if (events.length === 0) return;
    link.send({ pw: 'events', events });
    stats.sent += events.length;
  };
  const unsubscribe = hub.subscribe(({ event }) => {
    if (closed || remote.has(event) || event.kind === 'reset' || keep.has(event.kind)) return;
    queue.push(event);
    flushing ??= setImmediate(flush);
  });
  return {
    stats,
    wakeCluster: () => link.send({ pw: 'wake-cluster' }),
    onClusterWake: (listener) => void clusterListeners.push(listener),
    wakeRequests: () => link.send({ pw: 'wake-requests' }),
    onRequestsWake: (listener) => void requestListeners.push(listener),
    close: async () => {
      if (flushing) clearImmediate(flushing);
      flush();
      closed = true;
      unsubscribe();
    },
  };
}
