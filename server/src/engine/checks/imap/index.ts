import { runMailGreetingCheck, type MailDialect, type MailGreetingSpec } from '../mail-greeting.js';
import type { CheckContext, CheckRun } from '../types.js';

export type ImapCheckSpec = MailGreetingSpec;

/** RFC 9051: `* OK` (or `* PREAUTH`) greets, `a1 STARTTLS` is answered `a1 OK`. */
const imap: MailDialect = {
  name: 'IMAP',
  refusal: (line) =>
    /^\* (OK|PREAUTH)\b/i.test(line)
      ? null
      : /^\* BYE\b/i.test(line)
        ? 'it said BYE'
        : 'it did not start with * OK',
  startTls: {
    command: 'a1 STARTTLS',
    granted: (line) => (/^a1 /i.test(line) ? /^a1 OK\b/i.test(line) : null),
  },
  goodbye: 'a2 LOGOUT',
};

export const runImapCheck = (spec: ImapCheckSpec, ctx: CheckContext): Promise<CheckRun> =>
  runMailGreetingCheck(spec, imap, ctx);
