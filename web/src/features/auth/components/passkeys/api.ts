import type { PasskeyList, PasskeyRegistered, Session, WebAuthnOptions } from '@pagewatch/contract';
import {
  startAuthentication,
  startRegistration,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../../lib/api';
import { authKeys } from '../../api/keys';
import { storeSession } from '../../api/session';

// Not under the auth keys: those survive a change of person, a person's passkeys must not.
const passkeysKey = () => ['passkeys'] as const;

export const passkeysQuery = () =>
  queryOptions({
    queryKey: passkeysKey(),
    queryFn: ({ signal }) => api<PasskeyList>('/auth/passkeys', { signal }),
  });

// A 401 from the sign-in calls means "not accepted", not "your session ended".
const signIn = { signIn: true };

/** Asks the server for options, lets the browser and authenticator answer, sends the answer. */
export function useAddPasskey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (name: string) => {
      const options = await api<WebAuthnOptions>('/auth/passkeys/register/options', {
        method: 'POST',
      });
      const response = await startRegistration({
        optionsJSON: options as unknown as PublicKeyCredentialCreationOptionsJSON,
      });
      return api<PasskeyRegistered>('/auth/passkeys/register', {
        method: 'POST',
        body: { name, response },
      });
    },
    // The session was rotated: /auth/me brings its new CSRF token and the second-factor state.
    // Not awaited: the old session's event stream may already have asked for the session, and
    // that read, finding the old session gone, waits for this mutation to settle (meQuery).
    onSuccess: async () => {
      void client.invalidateQueries({ queryKey: authKeys.me() });
      await client.invalidateQueries({ queryKey: passkeysKey() });
    },
  });
}

export function useRenamePasskey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, name }: { id: number; name: string }) =>
      api<unknown>(`/auth/passkeys/${id}`, { method: 'PATCH', body: { name } }),
    onSuccess: () => void client.invalidateQueries({ queryKey: passkeysKey() }),
  });
}

export function useRemovePasskey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api<void>(`/auth/passkeys/${id}`, { method: 'DELETE' }),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: passkeysKey() });
      // Not awaited, as after adding one (meQuery may be waiting for this mutation).
      void client.invalidateQueries({ queryKey: authKeys.me() });
    },
  });
}

/** Passwordless sign-in: the browser offers the passkeys it holds for this site. */
export function usePasskeySignIn() {
  const client = useQueryClient();
  return useMutation({
    meta: signIn,
    mutationFn: async () => {
      const options = await api<WebAuthnOptions>('/auth/passkeys/sign-in/options', {
        method: 'POST',
      });
      const response = await startAuthentication({
        optionsJSON: options as unknown as PublicKeyCredentialRequestOptionsJSON,
      });
      return api<Session>('/auth/passkeys/sign-in', { method: 'POST', body: { response } });
    },
    onSuccess: (session) => storeSession(client, session),
  });
}

/** The second step of a password sign-in, with one of this account's passkeys. */
export function usePasskeySecondFactor() {
  const client = useQueryClient();
  return useMutation({
    meta: signIn,
    mutationFn: async (challenge: string) => {
      const options = await api<WebAuthnOptions>('/auth/login/passkey/options', {
        method: 'POST',
        body: { challenge },
      });
      const response = await startAuthentication({
        optionsJSON: options as unknown as PublicKeyCredentialRequestOptionsJSON,
      });
      return api<Session>('/auth/login/passkey', {
        method: 'POST',
        body: { challenge, response },
      });
    },
    onSuccess: (session) => storeSession(client, session),
  });
}

/** Words for what the browser said (cancelled, unsupported) or the server refused. */
export function describePasskeyError(error: unknown): { title: string; detail?: string } | null {
  if (!error) return null;
  const name = (error as { name?: string }).name;
  if (name === 'NotAllowedError' || name === 'AbortError')
    return { title: 'The passkey request was cancelled or timed out', detail: 'Try again.' };
  if (name === 'InvalidStateError')
    return { title: 'This device already holds a passkey for your account' };
  if (name === 'NotSupportedError' || name === 'SecurityError')
    return {
      title: 'This browser cannot use passkeys here',
      detail: 'Passkeys need HTTPS (or localhost) and the address set as the public URL.',
    };
  return null;
}
