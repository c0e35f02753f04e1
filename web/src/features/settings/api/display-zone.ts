import { useQuery } from '@tanstack/react-query';
import { setDisplayTimeZone } from '../../../lib/format';
import { settingsQuery } from './settings';

/**
 * Formats times in the instance's display time zone (Settings → General). Set during render,
 * so the screens rendered below the caller already use it.
 */
export function useDisplayTimeZone(): void {
  const { data } = useQuery(settingsQuery());
  if (data) setDisplayTimeZone(data.general.timeZone);
}
