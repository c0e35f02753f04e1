import type { ServerEvent } from '@pagewatch/contract';
import type { ServiceDeps } from '../deps.js';

/** Tells listeners (the public page cache, open editors) that a page changed. */
export function publishChange(
  deps: Pick<ServiceDeps, 'hub'>,
  change: 'created' | 'updated' | 'deleted',
  pageId: number,
): void {
  const event: ServerEvent = { kind: 'status-page', change, pageId };
  deps.hub.publish(event);
}
