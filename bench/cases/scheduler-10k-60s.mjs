// scheduler-10k-60s: 10000 HTTP monitors every 60 s against a loopback target, 300 s measured;
// p99 start lateness bar 500 ms. See bench/lib/scheduler-bench.mjs.
process.env.BENCH_SCHEDULER_NAME = 'scheduler-10k-60s';
process.env.BENCH_MONITORS ??= '10000';
process.env.BENCH_INTERVAL_S ??= '60';
process.env.BENCH_DURATION_S ??= '300';
process.env.BENCH_LATENESS_BAR_MS ??= '500';
await import('../lib/scheduler-bench.mjs');
