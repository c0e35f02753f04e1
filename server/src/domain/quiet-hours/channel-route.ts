import { sendTime, type QuietWindow } from './window.js';

/**
 * A notification channel's quiet hours (issue 18 item 5, ADR 68): while one of its windows is
 * on, a warning either waits for the window's end (no reroute channel) or goes to the reroute
 * channel instead, at once. Critical alerts always go straight through. Pure: the windows are
 * judged by the per-person rules of `window.ts`, never copied.
 */
export interface ChannelQuiet {
  windows: readonly QuietWindow[];
  /** Where warnings go during the windows; null: they wait for the window's end. */
  rerouteChannelId: number | null;
}

export interface ChannelRoute {
  /** The channel the row is queued for: the one asked, or the reroute it led to. */
  channelId: number;
  /** When the row may first be sent. */
  sendAt: number;
  /** The channels the message was passed on from, in order (empty when it was not rerouted). */
  reroutedFrom: number[];
}

/**
 * Where and when one message for `channelId` goes. A reroute target that is itself quiet is
 * judged by its own settings, so a chain of reroutes is followed; a target that is not live
 * (disabled, removed) or already on the chain stops it, and the message waits on the last
 * channel reached. Never dropped: the answer always names a channel and a time.
 */
export function routeForChannel(input: {
  channelId: number;
  severity: 'critical' | 'warning';
  at: number;
  quiet: ReadonlyMap<number, ChannelQuiet>;
  /** Channels a message may be rerouted to (enabled ones). */
  live: ReadonlySet<number>;
}): ChannelRoute {
  const { severity, at, quiet, live } = input;
  const chain = [input.channelId];
  for (;;) {
    const current = chain[chain.length - 1]!;
    const q = quiet.get(current);
    const when = sendTime({ severity, at, windows: q?.windows ?? [] });
    const route = { channelId: current, sendAt: when.sendAt, reroutedFrom: chain.slice(0, -1) };
    if (!when.delayed) return route;
    const target = q?.rerouteChannelId ?? null;
    if (target === null || !live.has(target) || chain.includes(target)) return route;
    chain.push(target);
  }
}
