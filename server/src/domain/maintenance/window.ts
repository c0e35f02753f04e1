import type { MaintenanceScope } from '@pagewatch/contract';
import type { WindowTiming } from './occurrences.js';

/** A stored maintenance window. */
export interface MaintenanceRecord extends WindowTiming {
  id: number;
  title: string;
  description: string;
  scope: MaintenanceScope;
  cancelledAt: number | null;
  createdAt: number;
  updatedAt: number;
  createdBy: string | null;
  updatedBy: string | null;
}
