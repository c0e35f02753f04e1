/**
 * A failure the CLI explains in one or more plain lines and ends with an exit code: 1 when the
 * command ran and the answer is "no" (invalid files, a refused apply), 2 when it could not run
 * (usage, configuration, the server unreachable or refusing the key).
 */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: 1 | 2 = 2,
  ) {
    super(message);
    this.name = 'CliError';
  }
}
