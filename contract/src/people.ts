import { z } from 'zod';
import { isCommonPassword } from './common-passwords.js';

/** Roles, addresses and passwords: shared by sign-in, people and their links. */
export const roles = ['viewer', 'editor', 'admin', 'owner'] as const;
export const Role = z.enum(roles);
export type Role = z.infer<typeof Role>;

/** Higher can do everything lower can (SPEC §6). */
export const roleRank: Record<Role, number> = { viewer: 1, editor: 2, admin: 3, owner: 4 };
export const atLeast = (role: Role, needed: Role): boolean => roleRank[role] >= roleRank[needed];

// RFC 5321: local part ≤ 64, whole address ≤ 254 octets.
export const Email = z
  .string()
  .trim()
  .toLowerCase()
  .max(254, 'Email addresses are at most 254 characters')
  .refine(
    (v) => /^[^\s@]{1,64}@[^\s@]+\.[^\s@.]+$/.test(v),
    'Enter an email address such as ana@example.com',
  );

export const NewPassword = z
  .string()
  .min(10, 'Use at least 10 characters')
  .max(1024, 'Passwords are limited to 1,024 characters')
  .refine((v) => !isCommonPassword(v), 'This password is too common; choose another');

/** A person's display name. */
export const PersonName = z
  .string()
  .trim()
  .min(1, 'Enter a name')
  .max(100, 'Names are limited to 100 characters');
