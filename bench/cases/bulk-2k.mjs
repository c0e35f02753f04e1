// bulk-2k: bulk actions and the dashboard's first scroll at 2,000 monitors (issue 17).
// Times POST /api/v1/monitors/bulk pausing and resuming all 2,000 (selected by filter, as
// "select all matching" sends it) while the scheduler runs; then, in headless Chromium, the
// frame rate of the first scroll through the 2,000 rows (pages load on the way).
// Targets: bulk pause of 2,000 ≤ 2 s; first scroll ≥ 55 fps.
import { chromium } from 'playwright-core';
import {
  createMonitors,
  ensureSignedIn,
  freePort,
  preflight,
  request,
  runBench,
  spawnServer,
  startTarget,
  stopChild,
  tempDir,
  waitHealthy,
} from '../lib/run.mjs';
import {
  ms,
  printEnvironment,
  printTable,
  summarize,
  verdict,
  writeResult,
} from '../lib/stats.mjs';

const MONITORS = Number(process.env.BENCH_MONITORS ?? 2000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SCROLLS = Number(process.env.BENCH_SCROLLS ?? 3);
/** Pixels scrolled per frame: about five rows, a brisk flick held the whole way down. */
const STEP_PX = Number(process.env.BENCH_STEP_PX ?? 280);
const OWNER = { email: 'bench@example.com', password: 'bench passphrase 0123' };
const TARGET_BULK_MS = 2000;
const TARGET_FPS = 55;

async function bulk(port, action) {
  const res = await request(port, '/api/v1/monitors/bulk', {
    method: 'POST',
    body: { selection: { kind: 'filter' }, action: { kind: action } },
  });
  if (res.status !== 200) throw new Error(`bulk ${action} → ${res.status}: ${res.body}`);
  const result = JSON.parse(String(res.body));
  if (result.done.length !== MONITORS) throw new Error(`bulk ${action} did ${result.done.length}`);
  return res.ms;
}

/**
 * Scrolls the dashboard from the top to the 2,000th row, one step per animation frame, in a new
 * context each time (nothing cached): frames counted by requestAnimationFrame while it runs.
 */
async function firstScroll(browser, port) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    await page.goto(`http://127.0.0.1:${port}/login`);
    await page.getByLabel('Email').fill(OWNER.email);
    await page.getByLabel('Password', { exact: true }).fill(OWNER.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByTestId('monitor-row').first().waitFor({ timeout: 30_000 });
    // The pointer away from the list, as on a trackpad flick that ends elsewhere.
    await page.mouse.move(5, 5);
    return await page.evaluate(
      ({ step, rows }) =>
        new Promise((resolve, reject) => {
          // Runs in the page: its window, document and frames.
          const w = globalThis;
          const frames = [];
          let last = w.performance.now();
          const t0 = last;
          const lastIndex = () => {
            const rendered = w.document.querySelectorAll('[data-testid="monitor-row"]');
            return Number(rendered[rendered.length - 1]?.getAttribute('data-index') ?? 0);
          };
          const tick = (t) => {
            frames.push(t - last);
            last = t;
            const bottom = w.scrollY + w.innerHeight >= w.document.documentElement.scrollHeight - 2;
            if (bottom && lastIndex() >= rows - 1) {
              const s = (t - t0) / 1000;
              resolve({ frames: frames.slice(1), seconds: s, scrollY: w.scrollY });
              return;
            }
            if (t - t0 > 120_000) {
              reject(new Error(`not at row ${rows} after 120 s (row ${lastIndex()})`));
              return;
            }
            w.scrollBy(0, step);
            w.requestAnimationFrame(tick);
          };
          w.requestAnimationFrame(tick);
        }),
      { step: STEP_PX, rows: MONITORS },
    );
  } finally {
    await context.close();
  }
}

await runBench('bulk-2k', async () => {
  console.log(`bulk-2k: ${MONITORS} monitors, ${ROUNDS} pause/resume rounds, ${SCROLLS} scrolls`);
  const env = printEnvironment();
  const server = await preflight();
  if (!server.spaServed) throw new Error('build the web app first (npm run build)');
  const target = await startTarget();
  const port = await freePort();
  const child = spawnServer({ dataDir: tempDir('bulk-2k'), port });
  await waitHealthy(port, child);
  await ensureSignedIn(port);
  const created = await createMonitors(port, MONITORS, (i) => target.url(`/m/${i}`), {
    interval: 60,
    timeout: 5,
  });
  console.log(`created ${MONITORS} monitors in ${(created.ms / 1000).toFixed(1)} s`);

  const pauses = [];
  const resumes = [];
  for (let i = 0; i < ROUNDS; i++) {
    pauses.push(await bulk(port, 'pause'));
    resumes.push(await bulk(port, 'resume'));
  }
  const pause = summarize(pauses);
  const resume = summarize(resumes);
  // Printed now: a scroll that cannot finish on a loaded machine must not take these with it.
  console.log(
    `bulk pause p50 ${ms(pause.p50)} max ${ms(pause.max)}; resume p50 ${ms(resume.p50)} max ${ms(resume.max)}`,
  );

  const browser = await chromium.launch({
    executablePath: process.env.PAGEWATCH_CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox'],
  });
  const scrolls = [];
  try {
    for (let i = 0; i < SCROLLS; i++) scrolls.push(await firstScroll(browser, port));
  } finally {
    await browser.close();
  }
  await stopChild(child, 'SIGTERM', 20_000);

  const runs = scrolls.map((s) => {
    const f = summarize(s.frames);
    return {
      fps: s.frames.length / s.seconds,
      seconds: s.seconds,
      frames: s.frames.length,
      frameMs: f,
      over20ms: s.frames.filter((d) => d > 20).length,
    };
  });
  printTable(`POST /api/v1/monitors/bulk, all ${MONITORS} by filter, ${ROUNDS} each`, [
    ['action', 'p50', 'max'],
    ['pause', ms(pause.p50), ms(pause.max)],
    ['resume', ms(resume.p50), ms(resume.max)],
  ]);
  printTable(`first scroll through ${MONITORS} rows, ${STEP_PX} px a frame (headless Chromium)`, [
    ['run', 'fps', 'seconds', 'frames', 'frame p50', 'frame p95', 'frame max', 'frames > 20 ms'],
    ...runs.map((r, i) => [
      i + 1,
      r.fps.toFixed(1),
      r.seconds.toFixed(2),
      r.frames,
      ms(r.frameMs.p50),
      ms(r.frameMs.p95),
      ms(r.frameMs.max),
      r.over20ms,
    ]),
  ]);
  const worstFps = Math.min(...runs.map((r) => r.fps));
  const bulkMet = pause.max <= TARGET_BULK_MS;
  const fpsMet = worstFps >= TARGET_FPS;
  console.log(
    `\ntarget: bulk pause of ${MONITORS} ≤ ${TARGET_BULK_MS} ms: ${verdict(bulkMet)} (worst ${ms(pause.max)})`,
  );
  console.log(
    `target: first scroll ≥ ${TARGET_FPS} fps: ${verdict(fpsMet)} (worst ${worstFps.toFixed(1)} fps)`,
  );
  writeResult(
    'bulk-2k',
    {
      monitors: MONITORS,
      bulk: { pause, resume },
      scroll: { stepPx: STEP_PX, runs },
      target: { bulkMs: TARGET_BULK_MS, bulkMet, fps: TARGET_FPS, fpsMet },
    },
    env,
  );
});
