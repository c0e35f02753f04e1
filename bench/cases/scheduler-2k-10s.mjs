// scheduler-2k-10s: 2000 HTTP monitors every 10 s against a loopback target, 300 s measured;
// p99 start lateness bar 500 ms. See bench/lib/scheduler-bench.mjs.
process.env.BENCH_SCHEDULER_NAME = 'scheduler-2k-10s';
process.env.BENCH_MONITORS ??= '2000';
process.env.BENCH_INTERVAL_S ??= '10';
process.env.BENCH_DURATION_S ??= '300';
process.env.BENCH_LATENESS_BAR_MS ??= '500';
await import('../lib/scheduler-bench.mjs');
