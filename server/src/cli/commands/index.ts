import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { registerApply } from './apply.js';
import { registerBackup } from './backup.js';
import { registerExport } from './export.js';
import { registerImportGatus } from './import-gatus.js';
import { registerImportUptimeKuma } from './import-uptime-kuma.js';
import { registerPlan } from './plan.js';
import { registerProbe } from './probe.js';
import { registerRdapBootstrap } from './rdap-bootstrap.js';
import { registerResetPassword } from './reset-password.js';
import { registerRestore } from './restore.js';
import { registerSchema } from './schema.js';
import { registerServerVersion } from './server-version.js';
import { registerValidate } from './validate.js';

/** Adds one sub-command to the program; `contextOf` gives its action the options and streams. */
export type RegisterCommand = (program: Command, contextOf: (cmd: Command) => CliContext) => void;

/** Every sub-command, one file each; a new command is one file plus one line here. */
export const commands: readonly RegisterCommand[] = [
  registerServerVersion,
  registerExport,
  registerValidate,
  registerPlan,
  registerApply,
  registerSchema,
  registerBackup,
  registerRestore,
  registerImportUptimeKuma,
  registerImportGatus,
  registerResetPassword,
  registerRdapBootstrap,
  registerProbe,
];
