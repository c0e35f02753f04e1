import type { Monitor, MonitorDraft } from '@pagewatch/contract';
import type { UseMutationResult } from '@tanstack/react-query';
import {
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  type FormEvent,
  type FocusEvent,
} from 'react';
import { isApiError } from '../../../../lib/api';
import type { FormValues } from './form-values';
import { mapErrors, validate, type FieldErrors } from './validate';

type SaveMutation = UseMutationResult<Monitor, Error, MonitorDraft>;

/**
 * Form state with live validation by the shared schema: a field shows its error once it was
 * left (blur) or the form was submitted, and updates on every change after that. Errors the
 * server returns are mapped onto the same fields by path and cleared when the field changes.
 */
export function useMonitorForm(
  initial: FormValues,
  mutation: SaveMutation,
  onSaved: (m: Monitor) => void,
) {
  const [values, setValues] = useState(initial);
  const [touched, setTouched] = useState<ReadonlySet<string>>(() => new Set());
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<FieldErrors>({});
  const [attempt, setAttempt] = useState(0);
  const formRef = useRef<HTMLFormElement>(null);
  const validation = useMemo(() => validate(values), [values]);

  const errorFor = useCallback(
    (key: string): string | undefined =>
      serverErrors[key] ?? (submitted || touched.has(key) ? validation.errors[key] : undefined),
    [serverErrors, submitted, touched, validation.errors],
  );

  const set = useCallback(
    <K extends keyof FormValues>(key: K, value: FormValues[K], fieldKey: string = key) => {
      setValues((v) => ({ ...v, [key]: value }));
      setServerErrors((e) => {
        if (!(fieldKey in e)) return e;
        const { [fieldKey]: _cleared, ...rest } = e;
        return rest;
      });
    },
    [],
  );

  /** Delegated blur: every control sits in an element with data-field naming its key. */
  const onBlur = useCallback((event: FocusEvent<HTMLFormElement>) => {
    const key = (event.target as HTMLElement).closest<HTMLElement>('[data-field]')?.dataset.field;
    if (key) setTouched((t) => (t.has(key) ? t : new Set(t).add(key)));
  }, []);

  // After a failed submit, move focus to the first field that needs attention.
  useEffect(() => {
    if (attempt === 0) return;
    const frame = requestAnimationFrame(() => {
      formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
    });
    return () => cancelAnimationFrame(frame);
  }, [attempt]);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSubmitted(true);
    setServerErrors({});
    if (!validation.valid) {
      setAttempt((n) => n + 1);
      return;
    }
    const keys = { headerKeys: validation.headerKeys, assertionKeys: validation.assertionKeys };
    mutation.mutate(validation.draft, {
      onSuccess: onSaved,
      onError: (error) => {
        if (
          isApiError(error) &&
          error.kind === 'validation_failed' &&
          error.fieldErrors.length > 0
        ) {
          setServerErrors(mapErrors(error.fieldErrors, keys, values));
          setAttempt((n) => n + 1);
        }
      },
    });
  };

  /** The draft for "Test" when the form is valid; else its errors show as on submit. */
  const draftForTest = () => {
    setSubmitted(true);
    if (validation.valid) return validation.draft;
    setAttempt((n) => n + 1);
    return null;
  };

  /** Puts a server `validation_failed` answer (from "Test") on the fields. */
  const showServerErrors = (error: unknown) => {
    if (isApiError(error) && error.kind === 'validation_failed' && error.fieldErrors.length > 0) {
      const keys = { headerKeys: validation.headerKeys, assertionKeys: validation.assertionKeys };
      setServerErrors(mapErrors(error.fieldErrors, keys, values));
      setAttempt((n) => n + 1);
    }
  };

  /** Every error on screen, by field key; form-level ones included. */
  const shownErrors = submitted ? { ...validation.errors, ...serverErrors } : serverErrors;
  return {
    values,
    set,
    errorFor,
    onBlur,
    onSubmit,
    formRef,
    submitted,
    serverErrors,
    shownErrors,
    draftForTest,
    showServerErrors,
  };
}
