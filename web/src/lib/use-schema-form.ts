import { useCallback, useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import type { FocusEvent } from 'react';
import { isApiError } from './api';

interface Issue {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

/** The part of a zod schema a form needs; zod itself stays with the caller's (lazy) chunk. */
export interface Schema<Out> {
  safeParse(
    input: unknown,
  ): { success: true; data: Out } | { success: false; error: { issues: readonly Issue[] } };
}

type Values = Record<string, string>;
export type Errors<V extends Values> = Partial<Record<keyof V & string, string>>;

// Zod's built-in words are for developers; the contract sets its own wherever it matters.
const humanise = (message: string) =>
  message.startsWith('Invalid input') ? 'This value is not valid' : message;

/** First message per field, from schema issues (path "a.b" belongs to field "a"). */
export function issuesByField<V extends Values>(
  issues: readonly Issue[],
  fields: readonly string[],
): { errors: Errors<V>; other: string[] } {
  const errors: Record<string, string> = {};
  const other: string[] = [];
  for (const issue of issues) {
    const head = String(issue.path[0] ?? '');
    if (fields.includes(head)) errors[head] ??= humanise(issue.message);
    else other.push(humanise(issue.message));
  }
  return { errors: errors as Errors<V>, other };
}

interface Options<V extends Values, Out> {
  initial: V;
  schema: Schema<Out>;
  /** Form values → what the schema parses (trim, drop fields, convert). Default: as they are. */
  toInput?: (values: V) => unknown;
  /** Rules beyond the schema, such as "the two passwords match". */
  check?: (values: V) => Errors<V>;
}

/**
 * Form state validated by a shared contract schema, as the monitor form does: a field shows
 * its message once it was left or the form submitted; server `errors[]` land on the same fields.
 */
export function useSchemaForm<V extends Values, Out>({
  initial,
  schema,
  toInput,
  check,
}: Options<V, Out>) {
  const [values, setValues] = useState(initial);
  // What the form was filled with or last reset to: unsaved input is any difference from it.
  const [baseline, setBaseline] = useState(initial);
  const dirty = useMemo(
    () => JSON.stringify(values) !== JSON.stringify(baseline),
    [values, baseline],
  );
  const [touched, setTouched] = useState<ReadonlySet<string>>(() => new Set());
  const [submitted, setSubmitted] = useState(false);
  const [server, setServer] = useState<Errors<V>>({});
  const [serverOther, setServerOther] = useState<string[]>([]);
  const [attempt, setAttempt] = useState(0);
  const formRef = useRef<HTMLFormElement>(null);
  const fields = useMemo(() => Object.keys(initial), [initial]);

  const validation = useMemo(() => {
    const parsed = schema.safeParse(toInput ? toInput(values) : values);
    const own = check?.(values) ?? {};
    const fromSchema = parsed.success
      ? { errors: {} as Errors<V>, other: [] }
      : issuesByField<V>(parsed.error.issues, fields);
    const errors: Errors<V> = { ...own, ...fromSchema.errors };
    const valid = parsed.success && Object.keys(own).length === 0;
    return { errors, valid, data: parsed.success ? parsed.data : null };
  }, [schema, toInput, check, values, fields]);

  const errorFor = (key: keyof V & string): string | undefined =>
    server[key] ?? (submitted || touched.has(key) ? validation.errors[key] : undefined);

  const set = useCallback(<K extends keyof V & string>(key: K, value: string) => {
    setValues((v) => ({ ...v, [key]: value }));
    setServer((e) => {
      if (!(key in e)) return e;
      const { [key]: _cleared, ...rest } = e;
      return rest as Errors<V>;
    });
  }, []);

  /** `value` and `onChange` for a text input or select bound to `key`. */
  const bind = (key: keyof V & string) => ({
    value: values[key],
    onChange: (e: { target: { value: string } }) => set(key, e.target.value),
  });

  /**
   * Delegated blur: each control sits in a Field, whose data-field names its key. Leaving a
   * field still empty says nothing yet (that waits for submit), so tabbing past or clicking a
   * link under an autofocused field does not make the form jump.
   */
  const onBlur = useCallback((event: FocusEvent<HTMLFormElement>) => {
    const target = event.target as HTMLElement & { value?: unknown };
    if (typeof target.value === 'string' && target.value === '') return;
    const key = target.closest<HTMLElement>('[data-field]')?.dataset.field;
    if (key) setTouched((t) => (t.has(key) ? t : new Set(t).add(key)));
  }, []);

  useEffect(() => {
    if (attempt === 0) return;
    const frame = requestAnimationFrame(() => {
      formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
    });
    return () => cancelAnimationFrame(frame);
  }, [attempt]);

  /** Submit handler: runs `onValid` with the parsed input only when everything passes. */
  const handleSubmit = (onValid: (data: Out) => void) => (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSubmitted(true);
    setServer({});
    setServerOther([]);
    if (!validation.valid || validation.data === null) {
      setAttempt((n) => n + 1);
      return;
    }
    onValid(validation.data);
  };

  /** Puts a server `validation_failed` answer on the fields; true when it was one. */
  const showServerErrors = (error: unknown): boolean => {
    if (!isApiError(error) || error.fieldErrors.length === 0) return false;
    const issues = error.fieldErrors.map((e) => ({ path: e.path.split('.'), message: e.message }));
    const { errors, other } = issuesByField<V>(issues, fields);
    setServer(errors);
    setServerOther(other);
    setAttempt((n) => n + 1);
    return true;
  };

  /** One message on one field, e.g. a conflict the server reports without a path. */
  const setFieldError = (key: keyof V & string, message: string) => {
    setServer((e) => ({ ...e, [key]: message }));
    setAttempt((n) => n + 1);
  };

  const reset = (next: V = initial) => {
    setValues(next);
    setBaseline(next);
    setTouched(new Set());
    setSubmitted(false);
    setServer({});
    setServerOther([]);
  };

  return {
    values,
    set,
    bind,
    errorFor,
    onBlur,
    handleSubmit,
    showServerErrors,
    setFieldError,
    /** Server messages that belong to no field on this form. */
    serverOther,
    reset,
    formRef,
    /** The values differ from those it was filled with or last reset to. */
    dirty,
  };
}

export type SchemaForm<V extends Values, Out> = ReturnType<typeof useSchemaForm<V, Out>>;
