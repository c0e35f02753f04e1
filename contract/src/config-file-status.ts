import { z } from 'zod';

/** One problem with the server's configuration files, where an editor finds it. */
export const ConfigFileProblem = z.object({
  /** The file, relative to PAGEWATCH_CONFIG's folder (or its name); empty when none applies. */
  file: z.string(),
  line: z.number().int(),
  column: z.number().int(),
  /** The place in the document (`monitors[2].url`); empty for a file's syntax. */
  path: z.string(),
  message: z.string(),
});
export type ConfigFileProblem = z.infer<typeof ConfigFileProblem>;

/**
 * The server-side configuration mode (`PAGEWATCH_CONFIG`): what it reads and how its last
 * attempt went. `ok` false means the running configuration is the last one applied.
 */
export const ConfigFileStatus = z.object({
  /** Whether PAGEWATCH_CONFIG is set in the process that applies it. */
  enabled: z.boolean(),
  /** The file or folder read; null when the mode is off. */
  source: z.string().nullable(),
  /** The last attempt's outcome; null before the first. */
  ok: z.boolean().nullable(),
  /** When files were last read and checked (ISO time); null before the first. */
  lastAttemptAt: z.iso.datetime().nullable(),
  /** When a change was last applied successfully; null when none was yet. */
  lastAppliedAt: z.iso.datetime().nullable(),
  /** The content hash applied last (sha256 of the files read); null before the first. */
  appliedHash: z.string().nullable(),
  /** Why the last attempt failed; empty when it succeeded. */
  errors: z.array(ConfigFileProblem),
});
export type ConfigFileStatus = z.infer<typeof ConfigFileStatus>;
