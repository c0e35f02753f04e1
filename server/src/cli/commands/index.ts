import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { registerBackup } from './backup.js';
import { registerRestore } from './restore.js';
import { registerServerVersion } from './server-version.js';

/** Adds one sub-command to the program; `contextOf` gives its action the options and streams. */
export type RegisterCommand = (program: Command, contextOf: (cmd: Command) => CliContext) => void;

/** Every sub-command, one file each; a new command is one file plus one line here. */
export const commands: readonly RegisterCommand[] = [
  registerServerVersion,
  registerBackup,
  registerRestore,
];
