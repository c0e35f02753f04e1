import { z } from 'zod';
import { Email, NewPassword, Role } from './people.js';

export * from './people.js';

export const TotpCode = z
  .string()
  .trim()
  .regex(/^\d{6}$/, 'Enter the 6-digit code from your app');

const Name = z
  .string()
  .trim()
  .min(1, 'Enter a name')
  .max(100, 'Names are limited to 100 characters');

export const SetupInput = z.strictObject({
  email: Email,
  name: Name,
  password: NewPassword,
  /** Printed in the server log at start-up; needed when setting up from another machine. */
  setupToken: z.string().trim().max(200).optional(),
});
export type SetupInput = z.infer<typeof SetupInput>;

export const LoginInput = z.strictObject({
  email: z.string().trim().toLowerCase().min(1, 'Enter your email').max(254),
  password: z.string().min(1, 'Enter your password').max(1024),
});
export type LoginInput = z.infer<typeof LoginInput>;

export const LoginTotpInput = z.strictObject({
  challenge: z.string().min(1).max(200),
  /** A 6-digit TOTP code, or one of the recovery codes. */
  code: z.string().trim().min(6, 'Enter the 6-digit code').max(32),
});

export const Me = z.object({
  id: z.number().int(),
  email: z.string(),
  name: z.string(),
  role: Role,
  totpEnabled: z.boolean(),
  /**
   * True while an account policy asks for a second factor this person has not set up: the API
   * answers `second_factor_required` until they add a TOTP app or a passkey (ADR 51).
   */
  secondFactorRequired: z.boolean().default(false),
  createdAt: z.iso.datetime(),
  lastLoginAt: z.iso.datetime().nullable(),
});
export type Me = z.infer<typeof Me>;

export const Session = z.object({
  user: Me,
  /** Send as `X-CSRF-Token` on every state-changing request made with the session cookie. */
  csrfToken: z.string(),
});
export type Session = z.infer<typeof Session>;

export const LoginResult = z.discriminatedUnion('status', [
  z.object({ status: z.literal('signed_in'), session: Session }),
  z.object({
    /** A second factor is needed: the name predates passkeys, which `methods` may offer. */
    status: z.literal('totp_required'),
    challenge: z.string(),
    /** What the second step takes: a TOTP code (or a recovery code) and/or a passkey. */
    methods: z.array(z.enum(['totp', 'passkey'])).default(['totp']),
  }),
]);
export type LoginResult = z.infer<typeof LoginResult>;

export const AuthStatus = z.object({
  /** True until the owner account exists: every page leads to /setup. */
  setupRequired: z.boolean(),
  /** Setup from this address needs the token printed in the server log (not from the server itself). */
  setupTokenRequired: z.boolean(),
  /** Whether this request's session cookie names a live session: the app asks /auth/me only then. */
  signedIn: z.boolean(),
  /** Whether "Forgot password?" can mail a link (public URL and system mail channel set). */
  passwordResetByMail: z.boolean(),
});
export type AuthStatus = z.infer<typeof AuthStatus>;

export const PasswordChange = z.strictObject({
  current: z.string().min(1, 'Enter your current password').max(1024),
  next: NewPassword,
});

export const TotpEnrolment = z.object({
  secret: z.string(),
  otpauthUrl: z.string(),
  /** SVG markup of the QR code for otpauthUrl. */
  qrSvg: z.string(),
});
export type TotpEnrolment = z.infer<typeof TotpEnrolment>;

export const TotpConfirm = z.strictObject({ code: TotpCode });
export const RecoveryCodes = z.object({ recoveryCodes: z.array(z.string()) });
export const TotpDisable = z.strictObject({
  password: z.string().min(1).max(1024),
  code: z.string().trim().min(6).max(32),
});

export const User = Me.extend({ disabled: z.boolean() });
export type User = z.infer<typeof User>;

/**
 * Someone an editor may pick as a report's recipient: an active account's name and address,
 * nothing of its role, sign-ins or second factor (those stay with the admins' users list).
 */
export const Person = z.object({ id: z.number().int(), name: z.string(), email: z.string() });
export type Person = z.infer<typeof Person>;

export const UserCreate = z.strictObject({
  email: Email,
  name: Name,
  role: Role,
  password: NewPassword,
});
export type UserCreate = z.infer<typeof UserCreate>;

export const UserUpdate = z.strictObject({
  name: Name.optional(),
  role: Role.optional(),
  disabled: z.boolean().optional(),
});
export type UserUpdate = z.infer<typeof UserUpdate>;

export const PasswordReset = z.strictObject({ password: NewPassword });

export const UserIdParams = z.strictObject({ id: z.coerce.number().int().positive() });

export const ApiKeyInput = z.strictObject({
  name: Name,
  role: Role,
  /** ISO time after which the key stops working; null never expires. */
  expiresAt: z.iso.datetime({ offset: true }).nullable().default(null),
});
export type ApiKeyInput = z.input<typeof ApiKeyInput>;

export const ApiKey = z.object({
  id: z.number().int(),
  name: z.string(),
  /** The first characters of the key, enough to recognise it. */
  prefix: z.string(),
  role: Role,
  createdBy: z.object({ id: z.number().int(), name: z.string() }),
  createdAt: z.iso.datetime(),
  expiresAt: z.iso.datetime().nullable(),
  lastUsedAt: z.iso.datetime().nullable(),
});
export type ApiKey = z.infer<typeof ApiKey>;

export const ApiKeyCreated = z.object({
  apiKey: ApiKey,
  /** The whole key, shown this once; only its hash is stored. */
  secret: z.string(),
});

export * from './accounts.js';
