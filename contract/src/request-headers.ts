import { z } from 'zod';
import { HEADER_TOKEN } from './assertions.js';

/**
 * Header names whose values describe the request rather than grant anything (lower case).
 * The form offers them as non-secret; migration 013 left them in clear. Anything else a user
 * adds is secret by default: X-Api-Key, Cookie, Authorization and invented names alike.
 */
export const HARMLESS_HEADER_NAMES: readonly string[] = [
  'accept',
  'accept-charset',
  'accept-encoding',
  'accept-language',
  'cache-control',
  'content-type',
  'pragma',
  'user-agent',
];

export const isHarmlessHeader = (name: string): boolean =>
  HARMLESS_HEADER_NAMES.includes(name.trim().toLowerCase());

export const headerLimits = { valueMax: 8192, countMax: 50 } as const;

const HeaderName = z
  .string()
  .regex(HEADER_TOKEN, "Header names are letters, digits and !#$%&'*+-.^_`|~ only");

const HeaderValue = z
  .string()
  .max(headerLimits.valueMax, 'Header values are limited to 8,192 characters')
  .refine((v) => !/[\r\n\0]/.test(v), 'Header values cannot contain line breaks');

/**
 * A request header of an HTTP or browser monitor. Secret (the default) values are write-only:
 * sealed at rest and never returned. On an update a secret header sent without `value` keeps
 * the stored value of the header of the same name (any case; the n-th of a repeated name takes
 * the n-th stored one). A renamed or new secret header needs its value; a non-secret one always
 * carries its value. A header left out of the list is removed.
 */
export const RequestHeaderInput = z
  .strictObject({
    name: HeaderName,
    secret: z.boolean().default(true),
    value: HeaderValue.optional(),
  })
  .superRefine((h, ctx) => {
    if (h.value === undefined ? !h.secret : h.secret && h.value === '') {
      ctx.addIssue({ code: 'custom', path: ['value'], message: 'Enter the value' });
    }
  });
export type RequestHeaderInput = z.infer<typeof RequestHeaderInput>;

export const RequestHeadersInput = z
  .array(RequestHeaderInput)
  .max(headerLimits.countMax, 'At most 50 headers')
  .default([]);

/**
 * A request header as the API returns it: a secret one says only that a value is stored
 * (`hasValue`), a non-secret one shows its value.
 */
export const RequestHeaderView = z.discriminatedUnion('secret', [
  z.object({ name: z.string(), secret: z.literal(true), hasValue: z.boolean() }),
  z.object({
    name: z.string(),
    secret: z.literal(false),
    hasValue: z.boolean(),
    value: z.string(),
  }),
]);
export type RequestHeaderView = z.infer<typeof RequestHeaderView>;

/** Names HTTP/2 and gRPC set themselves; metadata may not carry them. */
const GRPC_RESERVED = [
  'connection',
  'content-type',
  'host',
  'keep-alive',
  'te',
  'transfer-encoding',
  'upgrade',
];

/**
 * gRPC call metadata (e.g. `authorization: Bearer …`): request headers with the same
 * write-only rules, less what gRPC reserves. Names are sent in lower case; `grpc-` names belong
 * to the protocol, and binary (`-bin`) values are not text.
 */
export const GrpcMetadataInput = RequestHeadersInput.superRefine((headers, ctx) => {
  headers.forEach((h, i) => {
    const name = h.name.toLowerCase();
    const message = name.endsWith('-bin')
      ? 'Binary metadata (names ending in -bin) is not supported: send text'
      : name.startsWith('grpc-') || GRPC_RESERVED.includes(name)
        ? `gRPC sets ${name} itself`
        : null;
    if (message !== null) ctx.addIssue({ code: 'custom', path: [i, 'name'], message });
  });
});
