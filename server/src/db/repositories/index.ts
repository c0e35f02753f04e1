import { groupMembersRepository } from './group-members.js';
import type { Database } from '../database.js';
import { backupRepository } from '../backup/index.js';
import { accountTokensRepository } from './account-tokens.js';
import { apiKeysRepository } from './api-keys.js';
import { auditRepository } from './audit.js';
import { incidentsRepository } from './incidents.js';
import { instanceDataRepository } from './instance-data.js';
import { browserRunsRepository } from './browser-runs.js';
import { channelCoverageRepository } from './channel-coverage.js';
import { coverageRepository } from './coverage.js';
import { checkRequestsRepository } from './check-requests.js';
import { clusterRepository } from './cluster.js';
import { configKeysRepository } from './config-keys.js';
import { deliveriesRepository } from './deliveries.js';
import { OutboxSignal } from '../../lib/outbox-signal.js';
import { locationsRepository } from './locations.js';
import { locationResultsRepository } from './location-results.js';
import { monitorLocationsRepository } from './monitor-locations.js';
import { loginFailuresRepository } from './login-failures.js';
import { availabilityRepository } from './availability.js';
import { reportDeliveryRepository } from './report-delivery.js';
import { maintenanceRepository } from './maintenance.js';
import { monitorsRepository } from './monitors.js';
import { monitorBulkRepository } from './monitor-bulk.js';
import { monitorMetricsRepository } from './monitor-metrics.js';
import { monitorParentsRepository } from './monitor-parents.js';
import { alertGroupsRepository } from './alert-groups.js';
import { deliveryLogRepository } from './delivery-log.js';
import { escalationsRepository } from './escalations.js';
import { oncallRepository } from './oncall.js';
import { slosRepository } from './slos.js';
import { contactMethodsRepository } from './contact-methods.js';
import { notificationChannelsRepository } from './notification-channels.js';
import { resultsRepository } from './results.js';
import { retentionRepository } from './retention.js';
import { rollupsRepository } from './rollup-reads.js';
import { rollupImportRepository } from './rollup-import.js';
import { sessionsRepository } from './sessions.js';
import { passkeysRepository } from './passkeys.js';
import { settingsRepository } from './settings.js';
import { statusPagesRepository } from './status-pages.js';
import { statusSubscribersRepository } from './status-subscribers.js';
import { statusPublicRepository } from './status-public.js';
import { usersRepository } from './users.js';
import { oidcRepository } from './oidc.js';

export function repositories(database: Database) {
  // Rung by the repositories that queue alerts, once their transaction committed.
  const outbox = new OutboxSignal();
  return {
    outbox,
    deliveries: deliveriesRepository(database.db),
    monitors: monitorsRepository(database.db),
    monitorBulk: monitorBulkRepository(database.db),
    monitorMetrics: monitorMetricsRepository(database.db),
    monitorParents: monitorParentsRepository(database.db),
    groupMembers: groupMembersRepository(database.db),
    alertGroups: alertGroupsRepository(database.db),
    results: resultsRepository(database.db, database.engine, outbox),
    browserRuns: browserRunsRepository(database.db),
    rollups: rollupsRepository(database.db),
    availability: availabilityRepository(database.db),
    reportDelivery: reportDeliveryRepository(database.db),
    rollupImport: rollupImportRepository(database.db, database.engine),
    retention: retentionRepository(database.db),
    users: usersRepository(database.db, database.engine),
    sessions: sessionsRepository(database.db),
    passkeys: passkeysRepository(database.db),
    apiKeys: apiKeysRepository(database.db),
    loginFailures: loginFailuresRepository(database.db),
    locations: locationsRepository(database.db),
    locationResults: locationResultsRepository(database.db, database.engine),
    coverage: coverageRepository(database.db, outbox),
    monitorLocations: monitorLocationsRepository(database.db),
    accountTokens: accountTokensRepository(database.db),
    oidc: oidcRepository(database.db),
    audit: auditRepository(database.db),
    incidents: incidentsRepository(database.db, outbox),
    maintenance: maintenanceRepository(database.db, outbox),
    statusPages: statusPagesRepository(database.db),
    statusSubscribers: statusSubscribersRepository(database.db, outbox),
    notificationChannels: notificationChannelsRepository(database.db),
    channelCoverage: channelCoverageRepository(database.db),
    deliveryLog: deliveryLogRepository(database.db),
    escalations: escalationsRepository(database.db),
    oncall: oncallRepository(database.db),
    slos: slosRepository(database.db),
    contactMethods: contactMethodsRepository(database.db),
    statusPublic: statusPublicRepository(database.db),
    cluster: clusterRepository(database.db, database.engine),
    checkRequests: checkRequestsRepository(database.db, database.engine),
    configKeys: configKeysRepository(database.db),
    settings: settingsRepository(database.db),
    instanceData: instanceDataRepository(database.db, database.engine),
    backup: backupRepository(database),
  };
}

export type Repositories = ReturnType<typeof repositories>;
