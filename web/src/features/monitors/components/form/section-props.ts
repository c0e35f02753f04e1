import type { FormValues } from './form-values';

/** Fields that hold free text (not a choice from a list). */
export type TextKey = {
  [K in keyof FormValues]: string extends FormValues[K] ? K : never;
}[keyof FormValues];

/** What every form section needs: the values, a setter, the error to show per field. */
export interface SectionProps {
  v: FormValues;
  /** The monitor being edited; null while creating one. */
  monitorId: number | null;
  set: <K extends keyof FormValues>(key: K, value: FormValues[K], fieldKey?: string) => void;
  errorFor: (key: string) => string | undefined;
  /** value + onChange for a text input bound to `key`. */
  text: (key: TextKey) => {
    value: string;
    onChange: (e: { target: { value: string } }) => void;
  };
}
