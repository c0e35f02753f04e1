import { z } from 'zod';

/*
 * Passkeys (WebAuthn, issue 21, ADR 50). The ceremony's own JSON (options and the browser's
 * answer) is @simplewebauthn's shape; it is passed through as an object the library checks.
 */

/** A passkey's name, as its owner calls it ("Work laptop", "Phone"). */
export const PasskeyName = z
  .string({ error: 'Enter a name' })
  .trim()
  .min(1, 'Enter a name')
  .max(64, 'Names are limited to 64 characters');

/** One registered passkey, as its owner sees it: never the key itself. */
export const Passkey = z.object({
  id: z.number().int(),
  name: PasskeyName,
  /** Synced by a password manager or the platform (multi-device), or bound to one device. */
  backedUp: z.boolean(),
  createdAt: z.iso.datetime(),
  lastUsedAt: z.iso.datetime().nullable(),
});
export type Passkey = z.infer<typeof Passkey>;

export const PasskeyList = z.object({ passkeys: z.array(Passkey) });
export type PasskeyList = z.infer<typeof PasskeyList>;

/**
 * WebAuthn options for navigator.credentials (PublicKeyCredentialCreationOptionsJSON or
 * RequestOptionsJSON), made and checked by the server's library; the UI hands them on as-is.
 */
export const WebAuthnOptions = z.record(z.string(), z.unknown());
export type WebAuthnOptions = z.infer<typeof WebAuthnOptions>;

/** The browser's answer to a ceremony (RegistrationResponseJSON or AuthenticationResponseJSON). */
export const WebAuthnResponse = z
  .looseObject({
    id: z.string().min(1).max(1024),
    rawId: z.string().min(1).max(1024),
    type: z.literal('public-key'),
    response: z.looseObject({ clientDataJSON: z.string().min(1).max(8192) }),
  })
  .describe('The JSON of a PublicKeyCredential, as @simplewebauthn/browser answers it');
export type WebAuthnResponse = z.infer<typeof WebAuthnResponse>;

export const PasskeyRegistration = z.strictObject({
  name: PasskeyName,
  response: WebAuthnResponse,
});
export type PasskeyRegistration = z.infer<typeof PasskeyRegistration>;

export const PasskeyRegistered = z.object({
  passkey: Passkey,
  /** Ten recovery codes when the account had none, shown this once; else empty. */
  recoveryCodes: z.array(z.string()),
});
export type PasskeyRegistered = z.infer<typeof PasskeyRegistered>;

export const PasskeyRename = z.strictObject({ name: PasskeyName });

export const PasskeyIdParams = z.strictObject({ id: z.coerce.number().int().positive() });

export const PasskeySignIn = z.strictObject({ response: WebAuthnResponse });

/** The second step of a password sign-in, with the challenge the password step answered. */
export const PasskeySecondFactorStart = z.strictObject({ challenge: z.string().min(1).max(200) });
export const PasskeySecondFactor = z.strictObject({
  challenge: z.string().min(1).max(200),
  response: WebAuthnResponse,
});
