import {
  Migrator,
  sql,
  type Kysely,
  type Migration,
  type MigrationProvider,
  type MigrationResultSet,
} from 'kysely';
import type { Engine } from '../database.js';
import { initial } from './001-initial.js';
import { accounts } from './002-accounts.js';
import { rollups } from './003-rollups.js';
import { totpLastStep } from './004-totp-last-step.js';
import { incidents } from './005-incidents.js';
import { maintenance } from './006-maintenance.js';
import { push } from './007-push.js';
import { lastDetails } from './008-last-details.js';
import { browserEvidence } from './009-browser-evidence.js';
import { notifications } from './010-notifications.js';
import { statusPages } from './011-status-pages.js';
import { incidentAutoTitle } from './012-incident-auto-title.js';
import { headerSecrets, type Sealer } from './013-header-secrets.js';
import { rounds } from './014-rounds.js';
import { cluster } from './015-cluster.js';
import { checkRequests } from './016-check-requests.js';
import { configKeys } from './018-config-keys.js';
import { settings } from './017-settings.js';
import { backupRuns } from './019-backup-runs.js';
import { configApplied } from './020-config-applied.js';
import { accountTokens } from './021-account-tokens.js';
import { statusPageTimeZone } from './023-status-page-time-zone.js';
import { auditFilters } from './025-audit-filters.js';
import { escalation } from './027-escalation.js';
import { oncall } from './028-oncall.js';
import { monitorParents } from './029-monitor-parents.js';
import { alertGroups } from './030-alert-groups.js';
import { slos } from './035-slos.js';
import { availabilityCorrections } from './037-availability-corrections.js';
import { oidcProviders } from './031-oidc-providers.js';
import { oidcSessions } from './032-oidc-sessions.js';
import { passkeys } from './033-passkeys.js';
import { webauthnChallenges } from './034-webauthn-challenges.js';
import { locations } from './039-locations.js';
import { locationVerdicts } from './041-location-verdicts.js';
import { contactMethods } from './043-contact-methods.js';
import { quietHoursAndTagPolicies } from './044-quiet-hours-and-tag-policies.js';
import { channelHealth } from './045-channel-health.js';
import { reportDelivery } from './048-report-delivery.js';
import { statusComponentLocations } from './050-status-component-locations.js';
import { channelQuietHours } from './052-channel-quiet-hours.js';
import { sloConfigKeys } from './054-slo-config-keys.js';
import { runSketches } from './055-run-sketches.js';
import { ownSchemaOnly } from './own-schema.js';

export type { Sealer } from './013-header-secrets.js';

export interface MigrateOptions {
  /** Seals secrets that a migration moves out of clear text (the instance SecretBox). */
  seal?: Sealer;
}

/** Migrations are code, listed in order, so a bundled build needs no folder scan. */
function migrations(engine: Engine, options: MigrateOptions): Record<string, Migration> {
  return {
    '001-initial': initial(engine),
    '002-accounts': accounts(engine),
    '003-rollups': rollups(engine),
    '004-totp-last-step': totpLastStep(),
    '005-incidents': incidents(engine),
    '006-maintenance': maintenance(engine),
    '007-push': push(),
    '008-last-details': lastDetails(),
    '009-browser-evidence': browserEvidence(engine),
    '010-notifications': notifications(engine),
    '011-status-pages': statusPages(engine),
    '012-incident-auto-title': incidentAutoTitle(),
    '013-header-secrets': headerSecrets(options.seal),
    '014-rounds': rounds(),
    '015-cluster': cluster(),
    '016-check-requests': checkRequests(engine),
    '018-config-keys': configKeys(),
    '017-settings': settings(),
    '019-backup-runs': backupRuns(engine),
    '020-config-applied': configApplied(),
    '021-account-tokens': accountTokens(engine),
    '023-status-page-time-zone': statusPageTimeZone(),
    '025-audit-filters': auditFilters(),
    '027-escalation': escalation(engine),
    '028-oncall': oncall(engine),
    '029-monitor-parents': monitorParents(),
    '030-alert-groups': alertGroups(engine),
    '035-slos': slos(engine),
    '037-availability-corrections': availabilityCorrections(engine),
    '031-oidc-providers': oidcProviders(engine),
    '032-oidc-sessions': oidcSessions(),
    '033-passkeys': passkeys(engine),
    '034-webauthn-challenges': webauthnChallenges(),
    '039-locations': locations(engine),
    '041-location-verdicts': locationVerdicts(),
    '043-contact-methods': contactMethods(engine),
    '044-quiet-hours-and-tag-policies': quietHoursAndTagPolicies(),
    '045-channel-health': channelHealth(),
    '048-report-delivery': reportDelivery(engine),
    '050-status-component-locations': statusComponentLocations(),
    '052-channel-quiet-hours': channelQuietHours(),
    '054-slo-config-keys': sloConfigKeys(),
    '055-run-sketches': runSketches(engine),
  };
}

/** Every migration this build knows, in order: a backup's schema version is one of them. */
export function migrationNames(): string[] {
  return Object.keys(migrations('sqlite', {}));
}

export async function migrateToLatest(
  db: Kysely<any>,
  engine: Engine,
  options: MigrateOptions = {},
): Promise<void> {
  await migrate(db, engine, options, (m) => m.migrateToLatest());
}

/** Migrates up (or down) to the named migration: tests of a migration start before it. */
export async function migrateTo(db: Kysely<any>, engine: Engine, name: string): Promise<void> {
  await migrate(db, engine, {}, (m) => m.migrateTo(name));
}

async function migrate(
  db: Kysely<any>,
  engine: Engine,
  options: MigrateOptions,
  run: (migrator: Migrator) => Promise<MigrationResultSet>,
): Promise<void> {
  const provider: MigrationProvider = { getMigrations: async () => migrations(engine, options) };
  // Kysely looks for its bookkeeping tables in every schema unless told which one: with
  // several schemas in one PostgreSQL database (tests run in parallel) it would find another's.
  const schema =
    engine === 'postgres'
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]
          ?.schema
      : undefined;
  const migrator = new Migrator({
    db: schema ? ownSchemaOnly(db, schema) : db,
    provider,
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = await run(migrator);
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const name = failed ? ` (${failed.migrationName})` : '';
    throw new Error(
      `Database migration failed${name}: ${String((error as Error)?.message ?? error)}`,
    );
  }
}
