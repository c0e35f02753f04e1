import { z } from 'zod';

/**
 * Stable problem types of SPEC §8, sent as the RFC 9457 `type` member; the HTTP-level ones
 * (405, 408, 414, 415, 431) have no SPEC type, so they carry their own.
 */
export const problemTypes = {
  validation_failed: 400,
  unauthenticated: 401,
  /**
   * An account policy asks for a second factor this person has not set up yet (ADR 51); before
   * `forbidden` so a bare 403 still maps to `forbidden`.
   */
  second_factor_required: 403,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  conflict: 409,
  payload_too_large: 413,
  uri_too_long: 414,
  unsupported_media_type: 415,
  rate_limited: 429,
  headers_too_large: 431,
  internal: 500,
  unavailable: 503,
} as const;

export type ProblemType = keyof typeof problemTypes;

export const FieldError = z.object({
  /** Dotted path of the offending field, e.g. `headers.0.name`; empty for the whole body. */
  path: z.string(),
  message: z.string(),
  code: z.string(),
});
export type FieldError = z.infer<typeof FieldError>;

export const Problem = z.object({
  type: z.enum(Object.keys(problemTypes) as [ProblemType, ...ProblemType[]]),
  title: z.string(),
  status: z.number().int(),
  detail: z.string().optional(),
  instance: z.string().optional(),
  requestId: z.string().optional(),
  errors: z.array(FieldError).optional(),
});
export type Problem = z.infer<typeof Problem>;

/** Turns zod issues into the per-field errors of a `validation_failed` problem. */
export function toFieldErrors(issues: readonly z.core.$ZodIssue[]): FieldError[] {
  return issues.map((issue) => ({
    path: issue.path.map(String).join('.'),
    message: issue.message,
    code: issue.code,
  }));
}
