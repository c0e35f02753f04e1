import { z } from 'zod';
import { Email, NewPassword, PersonName, Role } from './people.js';

/*
 * Getting back in and joining (issue 17, ADR 34): reset, invitation and email-change links.
 * A link carries one random token; the server keeps only its hash.
 */

/** The token from a link (the part after `#`). */
export const LinkToken = z.string().trim().min(1, 'This link is incomplete').max(200);

/** Why a link no longer works: the `code` of the `token` field error of a 400 answer. */
export const linkProblems = ['invalid', 'expired', 'used'] as const;
export type LinkProblem = (typeof linkProblems)[number];

/** POST /auth/password-reset/request: always answered alike, whether the address exists or not. */
export const PasswordResetRequest = z.strictObject({
  email: z.string().trim().toLowerCase().min(1, 'Enter your email').max(254),
});
export type PasswordResetRequest = z.infer<typeof PasswordResetRequest>;

export const LinkTokenInput = z.strictObject({ token: LinkToken });

/** What a reset link is for, shown above the new-password form. */
export const PasswordResetInfo = z.object({ email: z.string() });

export const PasswordResetComplete = z.strictObject({ token: LinkToken, password: NewPassword });
export type PasswordResetComplete = z.infer<typeof PasswordResetComplete>;

/** How an address receives the link: whether it was mailed, and why not. */
export const MailOutcome = z.object({
  mailed: z.boolean(),
  /** Plain words when it was not mailed (no system mail channel, the SMTP server refused…). */
  mailError: z.string().nullable(),
});

export const InvitationCreate = z.strictObject({ email: Email, role: Role });
export type InvitationCreate = z.infer<typeof InvitationCreate>;

export const Invitation = z.object({
  id: z.number().int(),
  email: z.string(),
  role: Role,
  /** Who invited (their email as it was then). */
  invitedBy: z.string(),
  createdAt: z.iso.datetime(),
  expiresAt: z.iso.datetime(),
  /** An expired invitation stays listed until it is resent or revoked. */
  expired: z.boolean(),
});
export type Invitation = z.infer<typeof Invitation>;

/** An invitation just made or resent: its link is shown this once, for sharing by hand. */
export const InvitationSent = MailOutcome.extend({ invitation: Invitation, link: z.string() });
export type InvitationSent = z.infer<typeof InvitationSent>;

export const InvitationIdParams = z.strictObject({ id: z.coerce.number().int().positive() });

/** What an invitation link offers, before the person accepts. */
export const InvitationInfo = z.object({ email: z.string(), role: Role, invitedBy: z.string() });
export type InvitationInfo = z.infer<typeof InvitationInfo>;

export const InvitationAccept = z.strictObject({
  token: LinkToken,
  name: PersonName,
  password: NewPassword,
});
export type InvitationAccept = z.infer<typeof InvitationAccept>;

/** PATCH /auth/me: one's own name. */
export const ProfileUpdate = z.strictObject({ name: PersonName });
export type ProfileUpdate = z.infer<typeof ProfileUpdate>;

/** POST /auth/email-change: the new address gets a confirmation link. */
export const EmailChangeRequest = z.strictObject({
  email: Email,
  password: z.string().min(1, 'Enter your password').max(1024),
});
export type EmailChangeRequest = z.infer<typeof EmailChangeRequest>;

export const EmailChangeSent = z.object({ email: z.string() });

/** Settings → General: the email channel that sends resets, invitations and email changes. */
export const MailSettings = z.strictObject({
  /** An email notification channel's id; null: this instance sends no account mail. */
  systemChannelId: z.number().int().positive().nullable(),
});
export type MailSettings = z.infer<typeof MailSettings>;
