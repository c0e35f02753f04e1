import { StatusPageInput } from '@pagewatch/contract';
import { useCallback, useMemo, useState, type FocusEvent } from 'react';
import { isApiError } from '../../lib/api';
import { toInput, type Draft } from './draft';

type Errors = Record<string, string>;

// Zod's built-in words are for developers; the contract sets its own wherever it matters.
const humanise = (message: string) =>
  message.startsWith('Invalid') ? 'This value is not valid' : message;

/** First message per dotted path, from the shared schema. */
function validate(draft: Draft) {
  const input = toInput(draft);
  const parsed = StatusPageInput.safeParse(input);
  const errors: Errors = {};
  if (!parsed.success)
    for (const issue of parsed.error.issues)
      errors[issue.path.map(String).join('.')] ??= humanise(issue.message);
  return { input, errors, valid: parsed.success };
}

/**
 * The editor's state: the draft, its schema errors (shown once a field was left or the form
 * submitted) and the server's field errors, which stay until that field changes.
 */
export function useDraft(initial: Draft) {
  const [draft, setDraft] = useState(initial);
  const [touched, setTouched] = useState<ReadonlySet<string>>(() => new Set());
  const [submitted, setSubmitted] = useState(false);
  const [server, setServer] = useState<Errors>({});
  const { input, errors, valid } = useMemo(() => validate(draft), [draft]);

  const set = useCallback((patch: Partial<Draft>, path: string) => {
    setDraft((d) => ({ ...d, ...patch }));
    // A change clears the server's word on that field and on everything inside it.
    setServer((e) => {
      const kept = Object.entries(e).filter(([k]) => k !== path && !k.startsWith(`${path}.`));
      return kept.length === Object.keys(e).length ? e : Object.fromEntries(kept);
    });
  }, []);

  const errorFor = (path: string): string | undefined =>
    server[path] ?? (submitted || touched.has(path) ? errors[path] : undefined);

  /** Delegated blur: a control's Field carries its path as data-field. */
  const onBlur = useCallback((event: FocusEvent<HTMLFormElement>) => {
    const key = (event.target as HTMLElement).closest<HTMLElement>('[data-field]')?.dataset.field;
    if (key) setTouched((t) => (t.has(key) ? t : new Set(t).add(key)));
  }, []);

  /** Puts a failed save's field errors on their fields; false when it had none. */
  const takeServerErrors = (error: unknown): boolean => {
    if (!isApiError(error) || error.fieldErrors.length === 0) return false;
    const next: Errors = {};
    for (const e of error.fieldErrors) next[e.path] ??= e.message;
    setServer(next);
    return true;
  };

  return {
    draft,
    setDraft,
    set,
    input,
    errors,
    valid,
    errorFor,
    onBlur,
    submitted,
    setSubmitted,
    takeServerErrors,
    serverErrors: server,
  };
}
