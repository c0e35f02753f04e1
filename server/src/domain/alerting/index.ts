export {
  announcingKinds,
  decideAlerts,
  certificateThresholdsDays,
  type AlertFacts,
} from './decide.js';
export { failurePhase } from './phase.js';
export { decodeAlertState, encodeAlertState, initialAlertState, type AlertState } from './state.js';
export { incidentAlert, type IncidentAlertKind } from './incident.js';
export { retryDelayMs, streamHeads, type DeliveryPolicy } from './delivery-plan.js';
