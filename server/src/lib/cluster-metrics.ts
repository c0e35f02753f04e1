import client from 'prom-client';

/** Read when /metrics is scraped: the cluster member's live figures (ADR 21). */
export interface ClusterProbes {
  members(): number;
  partitionsOwned(): number;
  fenced(): boolean;
  /** Every singleton this process contends for, and whether it holds it now. */
  singletons(): { name: string; held: boolean }[];
}

/** Singletons every deployment has: their series exist at 0 before the member starts. */
const KNOWN_SINGLETONS = ['housekeeping', 'retention'];

/** The cluster families of one process; the member's observer feeds the counters. */
export function clusterMetrics(registry: client.Registry) {
  const probes: ClusterProbes = {
    members: () => 0,
    partitionsOwned: () => 0,
    fenced: () => false,
    singletons: () => [],
  };
  new client.Gauge({
    name: 'pagewatch_cluster_members',
    help: 'Live cluster members (processes) this process saw at its last lease renewal',
    registers: [registry],
    // The primary's /metrics adds its workers' families up; every process sees the same members.
    aggregator: 'max',
    collect() {
      this.set(probes.members());
    },
  });
  new client.Gauge({
    name: 'pagewatch_cluster_partitions_owned',
    help: 'Partitions (of 1024) this process owns now, draining ones excluded',
    registers: [registry],
    collect() {
      this.set(probes.partitionsOwned());
    },
  });
  new client.Gauge({
    name: 'pagewatch_cluster_fenced',
    help: '1 while this process has fenced itself (no lease renewal within the safe margin)',
    registers: [registry],
    aggregator: 'max',
    collect() {
      this.set(probes.fenced() ? 1 : 0);
    },
  });
  new client.Gauge({
    name: 'pagewatch_cluster_singleton_held',
    help: 'Whether this process holds the singleton lease (1) or not (0), by singleton',
    labelNames: ['name'] as const,
    registers: [registry],
    collect() {
      const held = new Map(KNOWN_SINGLETONS.map((name) => [name, false]));
      for (const s of probes.singletons()) held.set(s.name, s.held);
      for (const [name, value] of held) this.set({ name }, value ? 1 : 0);
    },
  });
  const renewal = new client.Histogram({
    name: 'pagewatch_cluster_lease_renewal_seconds',
    help: 'Duration of one lease renewal round trip (heartbeat, member list and renewals)',
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const takeovers = new client.Counter({
    name: 'pagewatch_cluster_takeovers_total',
    help: 'Leases this process took over after another member let them expire, by kind',
    labelNames: ['kind'] as const,
    registers: [registry],
  });
  for (const kind of ['partition', 'singleton'] as const) takeovers.inc({ kind }, 0);
  const lateRounds = new client.Counter({
    name: 'pagewatch_cluster_takeover_late_rounds_total',
    help: 'Rounds run late because this process took their partition over before they were checked',
    registers: [registry],
  });
  const unowned = new client.Counter({
    name: 'pagewatch_cluster_results_unowned_total',
    help: 'Check results not recorded because the partition was lost while the check ran',
    registers: [registry],
  });
  const requests = new client.Counter({
    name: 'pagewatch_cluster_requests_total',
    help: 'Push pings and check-now requests handed over through the database, by direction',
    labelNames: ['direction'] as const,
    registers: [registry],
  });
  for (const direction of ['sent', 'claimed'] as const) requests.inc({ direction }, 0);
  return {
    probes,
    lateRounds,
    unowned,
    requests,
    /** The member's observer. */
    observer: {
      renewal: (seconds: number) => renewal.observe(seconds),
      takeovers: (kind: 'partition' | 'singleton', count: number) => takeovers.inc({ kind }, count),
    },
  };
}
