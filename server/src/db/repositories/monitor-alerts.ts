import { AlertRules, defaultAlertRules, type MonitorType } from '@pagewatch/contract';
import type { Transaction } from 'kysely';
import {
  announcingKinds,
  decideAlerts,
  decodeAlertState,
  encodeAlertState,
  type AlertFacts,
} from '../../domain/alerting/index.js';
import type { MonitorRecord, MonitorSettings } from '../../domain/monitor.js';
import { monitorTarget } from '../../domain/monitor-types.js';
import type { DB } from '../schema.js';
import { enqueueMonitorAlerts } from './deliveries.js';
import { followEscalation } from './escalation-routing.js';
import { tagPolicyOf } from './escalation-stored.js';
import { holdingParent } from './monitor-parents.js';
import { collectGrouped } from './alert-groups.js';
import type { ResultWrite } from './results.js';

/** The monitor columns the result write's update returns for alerting (no extra query). */
export const alertColumns = [
  'name',
  'type',
  'config',
  'retries',
  'alert_rules',
  'alert_state',
  'tags',
] as const;

export interface AlertRow {
  name: string;
  type: string;
  config: string;
  retries: number;
  alert_rules: string | null;
  alert_state: string | null;
  /** JSON string[]; a tag may name the policy (ADR 61). */
  tags: string;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

// Most monitors share a handful of rule sets: parse each JSON text once.
const parsedRules = new Map<string, AlertRules>();
function rulesOf(json: string | null): AlertRules {
  if (json === null) return defaultAlertRules;
  let rules = parsedRules.get(json);
  if (!rules) {
    if (parsedRules.size > 1000) parsedRules.clear();
    // Unreadable rules must not cost the monitor its results: the defaults apply instead.
    const parsed = safeJson(json);
    rules = AlertRules.safeParse(parsed).data ?? defaultAlertRules;
    parsedRules.set(json, rules);
  }
  return rules;
}

/**
 * Alerting for one result write, inside its transaction: decides and queues the events for the
 * monitor's channels. The alert state, when it changed, goes in `states` (monitor → encoded
 * state) for the caller to store for the whole batch at once. Returns the rows queued.
 */
export async function followAlerts(
  trx: Transaction<DB>,
  w: ResultWrite,
  row: AlertRow,
  states: Map<number, string | null>,
): Promise<number> {
  const { run } = w;
  const facts: AlertFacts = {
    at: w.at,
    monitor: () => ({
      id: w.monitorId,
      name: row.name,
      type: row.type as MonitorType,
      target: monitorTarget({
        type: row.type,
        settings: JSON.parse(row.config) as MonitorSettings,
      } as MonitorRecord),
    }),
    status: w.status,
    flip: w.flip,
    outcome: run.outcome,
    failures: w.failures,
    retries: row.retries,
    errorCode: run.errorCode,
    errorMessage: run.errorMessage,
    firstFailureAt: w.firstFailure?.at ?? null,
    certExpiresAt: run.certExpiresAt,
    maintenance: w.maintenance ?? false,
  };
  const rules = rulesOf(row.alert_rules);
  const before = decodeAlertState(row.alert_state);
  let { events, state } = decideAlerts({ rules, state: before, facts });
  // A down parent holds the announcement (ADR 41); asked only when there is one to hold.
  if (events.some((e) => announcingKinds.has(e.kind))) {
    const heldBy = await holdingParent(trx, w.monitorId);
    if (heldBy)
      ({ events, state } = decideAlerts({ rules, state: before, facts: { ...facts, heldBy } }));
  }
  const encoded = encodeAlertState(state);
  if (encoded !== row.alert_state) states.set(w.monitorId, encoded);
  if (events.length === 0) return 0;
  // The result's round and attempt name it in every process; a write without a round, its time.
  const resultKey = w.round ? `r${w.round.roundDue}.${w.round.attempt}` : `t${w.at}`;
  // A policy routes the outage (ADR 39): the monitor's own, else its tags' (ADR 61); without
  // one, every channel hears it at once. Untagged monitors ask nothing more.
  const policyId = rules.escalationPolicyId ?? (await tagPolicyOf(trx, row.tags));
  if (policyId !== null) {
    return followEscalation(trx, { monitorId: w.monitorId, policyId, events, at: w.at, resultKey });
  }
  // Down and up alerts of a grouped monitor wait in its group's batch (ADR 42).
  const { rest } = await collectGrouped(trx, w.monitorId, events, w.at, resultKey);
  return enqueueMonitorAlerts(trx, w.monitorId, rest, w.at, resultKey);
}
