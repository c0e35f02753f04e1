import { useId, type FocusEvent, type FormEvent, type ReactNode, type Ref } from 'react';
import { Button } from './Button';
import { useModal } from './use-modal';

interface FormDialogProps {
  open: boolean;
  title: string;
  children: ReactNode;
  submitLabel: string;
  tone?: 'danger' | 'primary';
  busy?: boolean;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  onCancel: () => void;
  formRef?: Ref<HTMLFormElement>;
  onBlur?: (event: FocusEvent<HTMLFormElement>) => void;
}

/** A modal form on <dialog>: Enter submits, Escape and the backdrop cancel. */
export function FormDialog({
  open,
  title,
  children,
  submitLabel,
  tone = 'primary',
  busy,
  onSubmit,
  onCancel,
  formRef,
  onBlur,
}: FormDialogProps) {
  const ref = useModal(open);
  const titleId = useId();
  return (
    <dialog
      ref={ref}
      className="dialog"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onCancel();
      }}
      onClick={(event) => {
        if (event.target === ref.current) onCancel();
      }}
    >
      {open && (
        <form
          ref={formRef}
          className="dialog__panel"
          noValidate
          onSubmit={onSubmit}
          onBlur={onBlur}
        >
          <h2 id={titleId} className="dialog__title">
            {title}
          </h2>
          {children}
          <div className="dialog__actions">
            <Button onClick={onCancel}>Cancel</Button>
            <Button type="submit" variant={tone === 'danger' ? 'danger' : 'primary'} busy={busy}>
              {submitLabel}
            </Button>
          </div>
        </form>
      )}
    </dialog>
  );
}
