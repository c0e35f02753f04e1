import type { OidcRole, OidcRoleMapping } from '@pagewatch/contract';
import type { Kysely, Selectable } from 'kysely';
import type { DB, OidcProvidersTable } from '../schema.js';

/** A provider as stored; `clientSecret` is sealed and only the OIDC services open it. */
export interface OidcProviderRecord {
  id: number;
  name: string;
  issuer: string;
  clientId: string;
  clientSecret: string | null;
  scopes: string;
  emailClaim: string;
  nameClaim: string;
  groupsClaim: string | null;
  defaultRole: OidcRole;
  signUp: 'create' | 'invited';
  roleMappings: OidcRoleMapping[];
  allowedDomains: string[];
  enabled: boolean;
  createdAt: number;
  updatedAt: number;
}

export type OidcProviderFields = Omit<OidcProviderRecord, 'id' | 'createdAt' | 'updatedAt'>;

const columns = [
  'id',
  'name',
  'issuer',
  'client_id',
  'client_secret',
  'scopes',
  'email_claim',
  'name_claim',
  'groups_claim',
  'default_role',
  'sign_up',
  'role_mappings',
  'allowed_domains',
  'enabled',
  'created_at',
  'updated_at',
] as const;

type Row = Pick<Selectable<OidcProvidersTable>, (typeof columns)[number]>;

const toRecord = (r: Row): OidcProviderRecord => ({
  id: Number(r.id),
  name: r.name,
  issuer: r.issuer,
  clientId: r.client_id,
  clientSecret: r.client_secret,
  scopes: r.scopes,
  emailClaim: r.email_claim,
  nameClaim: r.name_claim,
  groupsClaim: r.groups_claim,
  defaultRole: r.default_role as OidcRole,
  signUp: r.sign_up as 'create' | 'invited',
  roleMappings: JSON.parse(r.role_mappings) as OidcRoleMapping[],
  allowedDomains: JSON.parse(r.allowed_domains) as string[],
  enabled: Number(r.enabled) === 1,
  createdAt: Number(r.created_at),
  updatedAt: Number(r.updated_at),
});

const toRow = (f: OidcProviderFields) => ({
  name: f.name,
  issuer: f.issuer,
  client_id: f.clientId,
  client_secret: f.clientSecret,
  scopes: f.scopes,
  email_claim: f.emailClaim,
  name_claim: f.nameClaim,
  groups_claim: f.groupsClaim,
  default_role: f.defaultRole,
  sign_up: f.signUp,
  role_mappings: JSON.stringify(f.roleMappings),
  allowed_domains: JSON.stringify(f.allowedDomains),
  enabled: f.enabled ? 1 : 0,
});

export interface OidcFlowRecord {
  idHash: string;
  providerId: number;
  state: string;
  nonce: string;
  /** Sealed. */
  codeVerifier: string;
  redirectUri: string;
  returnTo: string;
  expiresAt: number;
}

/** Providers, linked identities, started flows and OIDC sessions (ADR 48, 49). */
export function oidcRepository(db: Kysely<DB>) {
  return {
    async list(): Promise<OidcProviderRecord[]> {
      const rows = await db.selectFrom('oidc_providers').select(columns).orderBy('id').execute();
      return rows.map(toRecord);
    },

    async find(id: number): Promise<OidcProviderRecord | null> {
      const row = await db
        .selectFrom('oidc_providers')
        .select(columns)
        .where('id', '=', id)
        .executeTakeFirst();
      return row ? toRecord(row) : null;
    },

    async insert(f: OidcProviderFields, now: number): Promise<OidcProviderRecord> {
      const row = await db
        .insertInto('oidc_providers')
        .values({ ...toRow(f), created_at: now, updated_at: now })
        .returning(columns)
        .executeTakeFirstOrThrow();
      return toRecord(row);
    },

    async update(
      id: number,
      f: OidcProviderFields,
      now: number,
    ): Promise<OidcProviderRecord | null> {
      const row = await db
        .updateTable('oidc_providers')
        .set({ ...toRow(f), updated_at: now })
        .where('id', '=', id)
        .returning(columns)
        .executeTakeFirst();
      return row ? toRecord(row) : null;
    },

    async remove(id: number): Promise<boolean> {
      // Children first: SQLite runs without cascading foreign keys in some set-ups.
      await db.deleteFrom('oidc_sessions').where('provider_id', '=', id).execute();
      await db.deleteFrom('oidc_flows').where('provider_id', '=', id).execute();
      await db.deleteFrom('oidc_identities').where('provider_id', '=', id).execute();
      const res = await db.deleteFrom('oidc_providers').where('id', '=', id).executeTakeFirst();
      return Number(res.numDeletedRows) === 1;
    },

    async findIdentity(providerId: number, subject: string): Promise<number | null> {
      const row = await db
        .selectFrom('oidc_identities')
        .select('user_id')
        .where('provider_id', '=', providerId)
        .where('subject', '=', subject)
        .executeTakeFirst();
      return row ? Number(row.user_id) : null;
    },

    async link(providerId: number, subject: string, userId: number, now: number): Promise<void> {
      await db
        .insertInto('oidc_identities')
        .values({ provider_id: providerId, subject, user_id: userId, created_at: now })
        .onConflict((oc) => oc.columns(['provider_id', 'subject']).doNothing())
        .execute();
    },

    async insertFlow(f: OidcFlowRecord, now: number): Promise<void> {
      // Abandoned flows go when the next one starts: no sweeper needed for a 10-minute row.
      await db.deleteFrom('oidc_flows').where('expires_at', '<=', now).execute();
      await db
        .insertInto('oidc_flows')
        .values({
          id_hash: f.idHash,
          provider_id: f.providerId,
          state: f.state,
          nonce: f.nonce,
          code_verifier: f.codeVerifier,
          redirect_uri: f.redirectUri,
          return_to: f.returnTo,
          expires_at: f.expiresAt,
        })
        .execute();
    },

    /** The flow, removed in the same step: a callback is answered once. */
    async takeFlow(idHash: string): Promise<OidcFlowRecord | null> {
      const row = await db
        .deleteFrom('oidc_flows')
        .where('id_hash', '=', idHash)
        .returning([
          'id_hash',
          'provider_id',
          'state',
          'nonce',
          'code_verifier',
          'redirect_uri',
          'return_to',
          'expires_at',
        ])
        .executeTakeFirst();
      return row
        ? {
            idHash: row.id_hash,
            providerId: Number(row.provider_id),
            state: row.state,
            nonce: row.nonce,
            codeVerifier: row.code_verifier,
            redirectUri: row.redirect_uri,
            returnTo: row.return_to,
            expiresAt: Number(row.expires_at),
          }
        : null;
    },

    async insertSession(
      s: { sessionHash: string; providerId: number; idToken: string; expiresAt: number },
      now: number,
    ): Promise<void> {
      await db.deleteFrom('oidc_sessions').where('expires_at', '<=', now).execute();
      await db
        .insertInto('oidc_sessions')
        .values({
          session_hash: s.sessionHash,
          provider_id: s.providerId,
          id_token: s.idToken,
          expires_at: s.expiresAt,
        })
        .execute();
    },

    /** Whether this session was begun through OIDC. */
    async hasSession(sessionHash: string): Promise<boolean> {
      const row = await db
        .selectFrom('oidc_sessions')
        .select('session_hash')
        .where('session_hash', '=', sessionHash)
        .executeTakeFirst();
      return row !== undefined;
    },

    async takeSession(
      sessionHash: string,
    ): Promise<{ providerId: number; idToken: string } | null> {
      const row = await db
        .deleteFrom('oidc_sessions')
        .where('session_hash', '=', sessionHash)
        .returning(['provider_id', 'id_token'])
        .executeTakeFirst();
      return row ? { providerId: Number(row.provider_id), idToken: row.id_token } : null;
    },
  };
}

export type OidcRepository = ReturnType<typeof oidcRepository>;
