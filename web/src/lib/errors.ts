import { isApiError } from './api';
import { formatWait } from './format';

export interface ErrorText {
  title: string;
  detail: string;
}

/** Turns anything thrown into two plain sentences for people; never a stack or "[object Object]". */
export function describeError(error: unknown): ErrorText {
  if (!isApiError(error)) {
    return {
      title: 'Something went wrong',
      detail:
        error instanceof Error && error.message ? error.message : 'An unexpected error occurred.',
    };
  }
  const detail = error.detail;
  switch (error.kind) {
    case 'validation_failed':
      return {
        title: 'Some values need fixing',
        detail:
          detail ?? 'The server did not accept the values; see the messages next to the fields.',
      };
    case 'unauthenticated':
      return { title: 'You are signed out', detail: detail ?? 'Sign in again to continue.' };
    case 'forbidden':
      return { title: 'Not allowed', detail: detail ?? 'Your role does not allow this action.' };
    case 'second_factor_required':
      return {
        title: 'Set up a second factor first',
        detail: detail ?? 'Your administrator requires a passkey or an authenticator app.',
      };
    case 'not_found':
      return {
        title: 'Not found',
        detail: detail ?? 'It may have been deleted or the link is wrong.',
      };
    case 'conflict':
      return {
        title: 'Conflicting change',
        detail: detail ?? 'Someone else changed this at the same time. Reload and try again.',
      };
    case 'payload_too_large':
      return {
        title: 'Too much data',
        detail:
          detail ?? 'The request is larger than the server accepts. Shorten the body or headers.',
      };
    case 'rate_limited':
      return {
        title: 'Too many requests',
        detail:
          error.retryAfter !== undefined
            ? `Wait ${formatWait(error.retryAfter)} and try again.`
            : (detail ?? 'Wait a moment and try again.'),
      };
    case 'internal':
      return {
        title: 'The server hit an error',
        detail:
          (detail ?? 'This is a bug in Pagewatch, not something you did.') +
          (error.requestId ? ` Reference: ${error.requestId}.` : ''),
      };
    case 'unavailable':
      return {
        title: 'Pagewatch is unavailable',
        detail: detail ?? 'The server is starting up or overloaded. Try again in a moment.',
      };
    // What the app itself never sends wrong: the address, method or encoding of a request.
    case 'method_not_allowed':
    case 'request_timeout':
    case 'uri_too_long':
    case 'unsupported_media_type':
    case 'headers_too_large':
      return {
        title: 'The request was refused',
        detail: detail ?? `The server answered with HTTP ${error.status}.`,
      };
    case 'network':
      return { title: error.title, detail: detail ?? '' };
    case 'unexpected':
      return {
        title: error.title,
        detail: detail ?? `The server answered with HTTP ${error.status}.`,
      };
  }
}
