import { runMailGreetingCheck, type MailDialect, type MailGreetingSpec } from '../mail-greeting.js';
import type { CheckContext, CheckRun } from '../types.js';

export type Pop3CheckSpec = MailGreetingSpec;

/** RFC 1939 and 2595: `+OK` greets, `STLS` is answered `+OK` (or `-ERR`). */
const pop3: MailDialect = {
  name: 'POP3',
  refusal: (line) => (/^\+OK\b/i.test(line) ? null : 'it did not start with +OK'),
  startTls: {
    command: 'STLS',
    granted: (line) => (/^\+OK\b/i.test(line) ? true : /^-ERR\b/i.test(line) ? false : null),
  },
  goodbye: 'QUIT',
};

export const runPop3Check = (spec: Pop3CheckSpec, ctx: CheckContext): Promise<CheckRun> =>
  runMailGreetingCheck(spec, pop3, ctx);
