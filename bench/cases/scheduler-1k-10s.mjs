// scheduler-1k-10s: 1000 HTTP monitors every 10 s against a loopback target, 180 s measured;
// p99 start lateness bar 250 ms. See bench/lib/scheduler-bench.mjs.
process.env.BENCH_SCHEDULER_NAME = 'scheduler-1k-10s';
process.env.BENCH_MONITORS ??= '1000';
process.env.BENCH_INTERVAL_S ??= '10';
process.env.BENCH_DURATION_S ??= '180';
process.env.BENCH_LATENESS_BAR_MS ??= '250';
await import('../lib/scheduler-bench.mjs');
