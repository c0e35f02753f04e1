import { CheckFailure } from '../socket.js';

/**
 * Why no echo request could be sent, and exactly what to change. Pagewatch sends ICMP through
 * the system `ping` (ADR 0043), which needs one of: an unprivileged ICMP socket allowed by
 * `net.ipv4.ping_group_range`, the binary's own CAP_NET_RAW, or a process that has it.
 */
const FIX =
  'allow unprivileged ICMP with `sysctl -w net.ipv4.ping_group_range="0 2147483647"` ' +
  '(persist it in /etc/sysctl.d/), or give the program the capability with ' +
  '`setcap cap_net_raw+ep $(command -v ping)`, or run Pagewatch with CAP_NET_RAW ' +
  '(Docker: --cap-add=NET_RAW)';

export function pingMissing(program: string): CheckFailure {
  return new CheckFailure(
    'ping_unavailable',
    `No ping program was found (${program}): install iputils-ping (apt-get install iputils-ping, ` +
      'apk add iputils) on the machine that runs the checks',
  );
}

export function pingNotPermitted(detail: string): CheckFailure {
  return new CheckFailure(
    'ping_unavailable',
    `This machine does not let Pagewatch send ICMP (${detail}): ${FIX}`,
  );
}

/** iputils' words for "no socket for you". */
export const isPermissionError = (stderr: string): boolean =>
  /operation not permitted|permission denied|socktype: SOCK_RAW/i.test(stderr);
