import { NewPassword } from '@pagewatch/contract';
import { ConfigError, loadConfig } from '../../config/config.js';
import { CliError } from '../errors.js';
import type { RegisterCommand } from './index.js';

/**
 * `pagewatch reset-password <email>`: run where the server runs, with its environment, for an
 * owner locked out without mail (ADR 34). Prints a one-hour reset link, or sets the password
 * read from standard input with --password-stdin; either way that person's sessions end.
 */
export const registerResetPassword: RegisterCommand = (program, contextOf) => {
  program
    .command('reset-password')
    .argument('<email>', 'the account to reset')
    .option(
      '--password-stdin',
      'set the password read from standard input instead of printing a link',
    )
    .description(
      "print a one-time reset link for an account, or set its password (run where the server runs, with the server's environment)",
    )
    .action(async (email: string, opts: { passwordStdin?: boolean }, cmd) => {
      const ctx = contextOf(cmd);
      let config;
      try {
        config = loadConfig(ctx.env);
      } catch (err) {
        if (err instanceof ConfigError) throw new CliError(err.message);
        throw err;
      }
      let password: string | null = null;
      if (opts.passwordStdin) {
        // One line, as `echo "$PW" | …` or a password manager's pipe gives it.
        password = (await ctx.stdin()).replace(/\r?\n$/, '');
        const parsed = NewPassword.safeParse(password);
        if (!parsed.success)
          throw new CliError(
            `Nothing was changed: ${parsed.error.issues[0]?.message ?? 'the password is not valid'}.`,
            1,
          );
      }
      // Loaded here: the database drivers cost start-up time every other command would pay.
      const { resetOnServer } = await import('../../services/accounts/server-reset.js');
      const { AppError } = await import('../../lib/errors.js');
      try {
        const done = await resetOnServer(
          config,
          email,
          password !== null ? { password } : { base: ctx.url ?? null },
        );
        if (done.kind === 'password') {
          ctx.out(`Password of ${done.email} set; every session of that account was signed out.\n`);
          return;
        }
        const relative = done.link.startsWith('/');
        ctx.out(
          `Reset link for ${done.email}, valid for one hour and once:\n${done.link}\n` +
            (relative
              ? 'Open it on the address you reach Pagewatch at (set PAGEWATCH_PUBLIC_URL, or pass --url, to print it whole).\n'
              : ''),
        );
      } catch (err) {
        if (err instanceof AppError) throw new CliError(`Nothing was changed: ${err.message}.`, 1);
        throw err;
      }
    });
};
