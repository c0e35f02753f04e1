import { ApiError, isApiError } from '../../lib/api';

/**
 * A settings answer names fields inside their group (`retention.rawDays`); a form edits one
 * group, so its fields are the names without the group.
 */
export function withinGroup(error: unknown, group: string): unknown {
  if (!isApiError(error)) return error;
  const prefix = `${group}.`;
  return new ApiError({
    kind: error.kind,
    status: error.status,
    title: error.title,
    detail: error.detail,
    requestId: error.requestId,
    retryAfter: error.retryAfter,
    fieldErrors: error.fieldErrors.map((f) =>
      f.path.startsWith(prefix) ? { ...f, path: f.path.slice(prefix.length) } : f,
    ),
  });
}
