import type {
  LoginInput,
  LoginResult,
  OidcLogoutResult,
  Session,
  SetupInput,
  TotpEnrolment,
} from '@pagewatch/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { authKeys } from './keys';
import { markSignedOut, storeSession } from './session';

// A 401 from these means "wrong credentials", not "your session ended" (see query-client.ts).
const signIn = { signIn: true };

export function useSetup() {
  const client = useQueryClient();
  return useMutation({
    meta: signIn,
    mutationFn: (input: SetupInput) => api<Session>('/auth/setup', { method: 'POST', body: input }),
    onSuccess: (session) => storeSession(client, session),
  });
}

export function useLogin() {
  const client = useQueryClient();
  return useMutation({
    meta: signIn,
    mutationFn: (input: LoginInput) =>
      api<LoginResult>('/auth/login', { method: 'POST', body: input }),
    onSuccess: (result) => {
      if (result.status === 'signed_in') storeSession(client, result.session);
    },
  });
}

export function useLoginTotp() {
  const client = useQueryClient();
  return useMutation({
    meta: signIn,
    mutationFn: (input: { challenge: string; code: string }) =>
      api<Session>('/auth/login/totp', { method: 'POST', body: input }),
    onSuccess: (session) => storeSession(client, session),
  });
}

/** Sign out of this browser, or of every session (`everywhere`). */
export function useLogout() {
  const client = useQueryClient();
  return useMutation({
    // Signing out of this browser goes through the OIDC route: a session begun at a provider
    // ends there too (RP-initiated logout, ADR 49); others simply end.
    mutationFn: async (everywhere: boolean): Promise<string | null> => {
      if (everywhere) {
        await api<void>('/auth/logout-all', { method: 'POST' });
        return null;
      }
      const out = await api<OidcLogoutResult>('/auth/oidc/logout', {
        method: 'POST',
      });
      return out.endSessionUrl;
    },
    onSuccess: (endSessionUrl) => {
      markSignedOut(client, true);
      if (endSessionUrl) window.location.assign(endSessionUrl);
    },
  });
}

export function useChangePassword() {
  return useMutation({
    mutationFn: (input: { current: string; next: string }) =>
      api<void>('/auth/password', { method: 'PUT', body: input }),
  });
}

export function useTotpEnrol() {
  return useMutation({
    mutationFn: () => api<TotpEnrolment>('/auth/totp/enrol', { method: 'POST' }),
  });
}

export function useTotpConfirm() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (code: string) =>
      api<{ recoveryCodes: string[] }>('/auth/totp/confirm', { method: 'POST', body: { code } }),
    onSuccess: () => void client.invalidateQueries({ queryKey: authKeys.me() }),
  });
}

export function useTotpDisable() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { password: string; code: string }) =>
      api<void>('/auth/totp/disable', { method: 'POST', body: input }),
    onSuccess: () => void client.invalidateQueries({ queryKey: authKeys.me() }),
  });
}
