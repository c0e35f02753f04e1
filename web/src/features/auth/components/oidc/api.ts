import type {
  OidcProvider,
  OidcProviderInput,
  SignInOptions,
  SignInPolicy,
} from '@pagewatch/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../../lib/api';

const keys = {
  // Under 'auth': not personal, so it survives the sign-in screen's clearing of personal data.
  options: ['auth', 'sign-in-options'] as const,
  providers: ['sign-in', 'providers'] as const,
  policy: ['sign-in', 'policy'] as const,
};

/** What the login page offers (public). */
export const signInOptionsQuery = () =>
  queryOptions({
    queryKey: keys.options,
    queryFn: ({ signal }) => api<SignInOptions>('/auth/sign-in-options', { signal }),
    staleTime: 60_000,
  });

/** Where a "Sign in with …" button goes: a full navigation, the server redirects on. */
export const startUrl = (providerId: number, next: string) =>
  `/api/v1/auth/oidc/${providerId}/start?returnTo=${encodeURIComponent(next)}`;

export const providersQuery = () =>
  queryOptions({
    queryKey: keys.providers,
    queryFn: ({ signal }) => api<OidcProvider[]>('/settings/sign-in/providers', { signal }),
  });

export const policyQuery = () =>
  queryOptions({
    queryKey: keys.policy,
    queryFn: ({ signal }) => api<SignInPolicy>('/settings/sign-in/policy', { signal }),
  });

export function useSaveProvider() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: number | null; input: OidcProviderInput }) =>
      id === null
        ? api<OidcProvider>('/settings/sign-in/providers', { method: 'POST', body: input })
        : api<OidcProvider>(`/settings/sign-in/providers/${id}`, { method: 'PUT', body: input }),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: keys.providers });
      void client.invalidateQueries({ queryKey: keys.options });
    },
  });
}

export function useDeleteProvider() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) =>
      api<void>(`/settings/sign-in/providers/${id}`, { method: 'DELETE' }),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: keys.providers });
      void client.invalidateQueries({ queryKey: keys.options });
    },
  });
}

export function useSavePolicy() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (policy: SignInPolicy) =>
      api<SignInPolicy>('/settings/sign-in/policy', { method: 'PUT', body: policy }),
    onSuccess: (policy) => {
      client.setQueryData(keys.policy, policy);
      void client.invalidateQueries({ queryKey: keys.options });
    },
  });
}
