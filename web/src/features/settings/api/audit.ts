import type { AuditEvent } from '@pagewatch/contract';
import { infiniteQueryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { settingsKeys } from './keys';

const PAGE = 50;

interface AuditPage {
  items: AuditEvent[];
  nextCursor: number | null;
}

/** Newest first, a page at a time; "load older" asks for events before the last one shown. */
export const auditQuery = (action: string | null) =>
  infiniteQueryOptions({
    queryKey: settingsKeys.audit(action),
    queryFn: ({ signal, pageParam }) => {
      const params = new URLSearchParams({ limit: String(PAGE) });
      if (pageParam !== null) params.set('before', String(pageParam));
      if (action) params.set('action', action);
      return api<AuditPage>(`/audit?${params.toString()}`, { signal });
    },
    initialPageParam: null as number | null,
    getNextPageParam: (last) => last.nextCursor,
  });

/** The actions the server records, grouped for the filter. */
export const auditActions: readonly { group: string; actions: readonly string[] }[] = [
  {
    group: 'Sign-in',
    actions: [
      'auth.setup',
      'auth.login',
      'auth.login_failed',
      'auth.logout',
      'auth.logout_all',
      'auth.password_changed',
      'auth.totp_enabled',
      'auth.totp_disabled',
      'auth.recovery_code_used',
    ],
  },
  { group: 'Users', actions: ['user.created', 'user.updated', 'user.password_reset'] },
  { group: 'API keys', actions: ['api_key.created', 'api_key.revoked'] },
  {
    group: 'Monitors',
    actions: [
      'monitor.created',
      'monitor.updated',
      'monitor.paused',
      'monitor.resumed',
      'monitor.deleted',
    ],
  },
  {
    group: 'Incidents',
    actions: [
      'incident.created',
      'incident.edited',
      'incident.updated',
      'incident.resolved',
      'incident.deleted',
    ],
  },
];
