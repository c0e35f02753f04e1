/** Fields every monitor has, whatever its type; the rest of an input is its type's settings. */
export const monitorCommonKeys = [
  'type',
  'name',
  'interval',
  'timeout',
  'retries',
  'retryInterval',
  'degradedThresholdMs',
  'tags',
  'description',
  'paused',
] as const;

export type MonitorCommonKey = (typeof monitorCommonKeys)[number];

/** A monitor's alerting: neither a check setting nor stored in the monitor's definition. */
export const monitorAlertKeys = ['alerts', 'channelIds'] as const;
