import type { InvitationInfo, LinkProblem, Me, Session } from '@pagewatch/contract';
import { linkProblems } from '@pagewatch/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, isApiError } from '../../../lib/api';
import { authKeys } from './keys';
import { storeSession } from './session';

type ResetInfo = { email: string };

/** The token of a link: what follows `#`, so it never reaches a server log or a Referer. */
export const tokenFromHash = (hash: string): string => decodeURIComponent(hash.replace(/^#/, ''));

/** Why a link no longer works, from a 400 whose `token` field carries the reason; else null. */
export function linkProblemOf(error: unknown): LinkProblem | null {
  if (!isApiError(error)) return null;
  const code = error.fieldErrors.find((e) => e.path === 'token')?.code;
  return (linkProblems as readonly string[]).includes(code ?? '') ? (code as LinkProblem) : null;
}

/** Whether this instance can mail reset links, asked afresh on the sign-in screens. */
export const resetByMailQuery = () =>
  queryOptions({
    queryKey: [...authKeys.status(), 'reset-by-mail'],
    queryFn: async ({ signal }) =>
      (await api<{ passwordResetByMail: boolean }>('/auth/status', { signal })).passwordResetByMail,
    staleTime: 0,
  });

export const resetLinkQuery = (token: string) =>
  queryOptions({
    queryKey: ['auth', 'reset-link', token],
    queryFn: ({ signal }) =>
      api<ResetInfo>('/auth/password-reset/check', {
        method: 'POST',
        body: { token },
        signal,
      }),
    retry: false,
    staleTime: Infinity,
  });

export const invitationQuery = (token: string) =>
  queryOptions({
    queryKey: ['auth', 'invitation', token],
    queryFn: ({ signal }) =>
      api<InvitationInfo>('/auth/invitation/check', { method: 'POST', body: { token }, signal }),
    retry: false,
    staleTime: Infinity,
  });

// A 401 from these means nothing about a session (see query-client.ts).
const signIn = { signIn: true };

export function useRequestReset() {
  return useMutation({
    meta: signIn,
    mutationFn: (email: string) =>
      api<void>('/auth/password-reset/request', { method: 'POST', body: { email } }),
  });
}

export function useResetPassword() {
  return useMutation({
    meta: signIn,
    mutationFn: (input: { token: string; password: string }) =>
      api<void>('/auth/password-reset', { method: 'POST', body: input }),
  });
}

export function useAcceptInvitation() {
  const client = useQueryClient();
  return useMutation({
    meta: signIn,
    mutationFn: (input: { token: string; name: string; password: string }) =>
      api<Session>('/auth/invitation/accept', { method: 'POST', body: input }),
    onSuccess: (session) => storeSession(client, session),
  });
}

export function useConfirmEmail() {
  const client = useQueryClient();
  return useMutation({
    meta: signIn,
    mutationFn: (token: string) =>
      api<{ email: string }>('/auth/email-change/confirm', { method: 'POST', body: { token } }),
    onSuccess: () => void client.invalidateQueries({ queryKey: authKeys.me() }),
  });
}

export function useUpdateProfile() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => api<Me>('/auth/me', { method: 'PATCH', body: { name } }),
    onSuccess: () => void client.invalidateQueries({ queryKey: authKeys.me() }),
  });
}

export function useRequestEmailChange() {
  return useMutation({
    mutationFn: (input: { email: string; password: string }) =>
      api<{ email: string }>('/auth/email-change', { method: 'POST', body: input }),
  });
}
