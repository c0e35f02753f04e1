import { isApiError } from '../../../../lib/api';

/** The server's message for one field path of a 400 (SPEC §8), e.g. `layers.1.name`. */
export function fieldErrorOf(error: unknown, path: string): string | undefined {
  if (!isApiError(error)) return undefined;
  return error.fieldErrors.find((e) => e.path === path)?.message;
}

/** The messages for paths under `prefix` (a layer's members, say), joined. */
export function fieldErrorsUnder(error: unknown, prefix: string): string | undefined {
  if (!isApiError(error)) return undefined;
  const found = error.fieldErrors.filter(
    (e) => e.path === prefix || e.path.startsWith(`${prefix}.`),
  );
  return found.length === 0 ? undefined : found.map((e) => e.message).join('; ');
}
