import { afterAll, describe, expect, it } from 'vitest';
import { ProgramRunner } from '../../src/lib/program-runner.js';

const env = { PATH: process.env.PATH ?? '/usr/bin:/bin' };
const options = (signal = new AbortController().signal, killAfterMs = 10_000) => ({
  env,
  maxOutput: 1024,
  killAfterMs,
  signal,
});

/** The helper process that starts programs for the ping check (ADR 72), with real programs. */
describe('ProgramRunner', () => {
  const runner = new ProgramRunner();
  afterAll(() => runner.stop());

  it('runs a program in the helper and answers with its exit code and output', async () => {
    const exit = await runner.run(
      'sh',
      ['-c', 'echo "out $PPID"; echo err >&2; exit 3'],
      options(),
    );
    expect(exit.code).toBe(3);
    expect(exit.stderr).toBe('err\n');
    // Its parent is the helper, not this process.
    const parent = Number(exit.stdout.replace('out ', ''));
    expect(parent).toBeGreaterThan(0);
    expect(parent).not.toBe(process.pid);
  });

  it('keeps at most maxOutput characters of each stream', async () => {
    const exit = await runner.run('sh', ['-c', 'head -c 100000 /dev/zero | tr "\\0" x'], options());
    expect(exit.code).toBe(0);
    expect(exit.stdout.length).toBeGreaterThan(0);
    expect(exit.stdout.length).toBeLessThan(100_000);
  });

  it('rejects with the spawn error code when the program is missing', async () => {
    await expect(runner.run('/nonexistent/ping', [], options())).rejects.toMatchObject({
      code: 'ENOENT',
    });
  });

  it('kills the program on abort and after killAfterMs', async () => {
    const ac = new AbortController();
    const aborted = runner.run('sleep', ['30'], options(ac.signal));
    setTimeout(() => ac.abort(), 200);
    expect((await aborted).code).toBeNull();
    const overdue = await runner.run('sleep', ['30'], options(undefined, 300));
    expect(overdue.code).toBeNull();
  }, 20_000);

  it('starts a new helper after the last one died, and fails the runs that waited on it', async () => {
    const waiting = runner.run('sleep', ['30'], options());
    setTimeout(() => runner.stop(), 200);
    await expect(waiting).rejects.toThrow(/helper process/);
    const exit = await runner.run('sh', ['-c', 'echo again'], options());
    expect(exit.stdout).toBe('again\n');
  }, 20_000);
});
