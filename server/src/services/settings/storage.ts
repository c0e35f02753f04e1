import type { StorageReport } from '@pagewatch/contract';
import { measuredRowBytes, projectStorage } from '../../domain/storage-projection.js';
import type { ServiceDeps } from '../deps.js';
import { settingsOf } from './read.js';

/** The database's size now, the check rate, and the size the retention settings lead to. */
export async function storageReport(deps: ServiceDeps): Promise<StorageReport> {
  const { instanceData } = deps.repos;
  const engine = instanceData.engine;
  const [size, intervals, reach, retention] = await Promise.all([
    instanceData.size(),
    instanceData.activeIntervals(),
    instanceData.historyReach(),
    settingsOf(deps).get('retention'),
  ]);
  const rowBytes = measuredRowBytes[engine];
  const projected = projectStorage({
    now: deps.clock.now(),
    intervals,
    retention,
    reach,
    rowBytes,
    databaseBytes: size.databaseBytes,
    freeDiskBytes: size.freeDiskBytes,
  });
  return {
    engine,
    ...size,
    bytesPerResult: rowBytes.raw,
    ...projected,
  };
}
