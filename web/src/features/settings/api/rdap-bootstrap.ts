import type { RdapBootstrapRefresh, RdapBootstrapStatus } from '@pagewatch/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { settingsKeys } from './keys';

const key = () => [...settingsKeys.settings(), 'rdap-bootstrap'] as const;

/** The RDAP bootstrap file domain expiry uses (admins). */
export const rdapBootstrapQuery = () =>
  queryOptions({
    queryKey: key(),
    queryFn: ({ signal }) => api<RdapBootstrapStatus>('/settings/rdap-bootstrap', { signal }),
  });

export function useRefreshRdapBootstrap() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: RdapBootstrapRefresh) =>
      api<RdapBootstrapStatus>('/settings/rdap-bootstrap/refresh', { method: 'POST', body: input }),
    onSuccess: (status) => {
      client.setQueryData(key(), status);
      void client.invalidateQueries({ queryKey: settingsKeys.auditAll() });
    },
  });
}
