/** How coverage changed at one moment: a window began or ended, or windows were edited. */
export interface CoverageChange {
  at: number;
  wasIn: (monitorId: number) => boolean;
  isIn: (monitorId: number) => boolean;
}

/**
 * The engine's view of maintenance windows. The engine does not read windows itself: whoever
 * composes it hands in something that knows (services/maintenance/live-index.ts).
 */
export interface MaintenanceLookup {
  inMaintenance(monitorId: number, at: number): boolean;
  /** Called when monitors enter or leave maintenance without a check (boundaries, edits). */
  onChange(listener: (change: CoverageChange) => void): () => void;
}

export const noMaintenance: MaintenanceLookup = {
  inMaintenance: () => false,
  onChange: () => () => {},
};
