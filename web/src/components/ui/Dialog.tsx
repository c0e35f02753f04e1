import { useId, type ReactNode } from 'react';
import { Button } from './Button';
import { useModal } from './use-modal';

interface DialogProps {
  open: boolean;
  title: string;
  children: ReactNode;
  onClose: () => void;
  /** Extra class on the <dialog>, e.g. a wider size. */
  className?: string;
}

/** A modal with content and one Close button; Escape and the backdrop close it too. */
export function Dialog({ open, title, children, onClose, className }: DialogProps) {
  const ref = useModal(open);
  const titleId = useId();
  return (
    <dialog
      ref={ref}
      className={`dialog ${className ?? ''}`}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onClick={(event) => {
        if (event.target === ref.current) onClose();
      }}
    >
      {open && (
        <div className="dialog__panel">
          <h2 id={titleId} className="dialog__title">
            {title}
          </h2>
          {children}
          <div className="dialog__actions">
            <Button onClick={onClose}>Close</Button>
          </div>
        </div>
      )}
    </dialog>
  );
}
