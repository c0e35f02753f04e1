import { logoTypes, statusPageLimits } from '@pagewatch/contract';
import { useEffect, useId, useRef, useState } from 'react';
import { Button } from '../../../components/ui/Button';
import { Icon } from '../../../components/ui/Icon';
import type { LogoChange } from '../api/status-pages';

/** Checks what the browser can before the upload; the server checks the bytes again. */
export function logoProblem(file: File): string | null {
  if (file.type === 'image/svg+xml' || /\.svg$/i.test(file.name))
    return 'SVG logos are not accepted because they can carry scripts. Use PNG, JPEG, WebP or GIF.';
  if (!(logoTypes as readonly string[]).includes(file.type))
    return 'Choose a PNG, JPEG, WebP or GIF image.';
  if (file.size > statusPageLimits.logoBytesMax)
    return `This image is ${Math.ceil(file.size / 1024)} KiB; logos are limited to 256 KiB.`;
  return null;
}

/** Logo with a preview; the change is sent when the page is saved. */
export function LogoField({
  currentUrl,
  change,
  onChange,
  serverError,
}: {
  currentUrl: string | null;
  change: LogoChange;
  onChange: (change: LogoChange) => void;
  serverError: string | undefined;
}) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [problem, setProblem] = useState<string | null>(null);
  // A data: URL, not a blob: one: the app's CSP allows images from itself and data: only.
  const [dataUrl, setDataUrl] = useState<string | null>(null);
  useEffect(() => {
    setDataUrl(null);
    if (change.kind !== 'upload') return;
    const reader = new FileReader();
    reader.onload = () => setDataUrl(typeof reader.result === 'string' ? reader.result : null);
    reader.readAsDataURL(change.file);
    return () => reader.abort();
  }, [change]);
  const shown = change.kind === 'upload' ? dataUrl : change.kind === 'remove' ? null : currentUrl;
  const error = problem ?? serverError;
  return (
    <div className={`field${error ? ' field--invalid' : ''}`} data-field="logo">
      <span className="field__label" id={`${id}-label`}>
        Logo <span className="field__optional">(optional)</span>
      </span>
      <div className="sp-logo">
        <div className="sp-logo__preview">
          {shown ? <img src={shown} alt="Logo preview" /> : <span className="muted">No logo</span>}
        </div>
        <div className="sp-logo__actions">
          <input
            ref={input}
            id={id}
            type="file"
            className="visually-hidden"
            accept={logoTypes.join(',')}
            aria-labelledby={`${id}-label`}
            aria-describedby={error ? `${id}-error` : `${id}-hint`}
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = '';
              if (!file) return;
              const why = logoProblem(file);
              setProblem(why);
              if (!why) onChange({ kind: 'upload', file });
            }}
          />
          <Button size="sm" icon="download" onClick={() => input.current?.click()}>
            {shown ? 'Replace logo' : 'Upload logo'}
          </Button>
          {shown && (
            <Button
              size="sm"
              variant="ghost"
              icon="trash"
              onClick={() => {
                setProblem(null);
                onChange(currentUrl ? { kind: 'remove' } : { kind: 'keep' });
              }}
            >
              Remove logo
            </Button>
          )}
        </div>
      </div>
      {error ? (
        <p id={`${id}-error`} className="field__error" role="alert">
          <Icon name="alertCircle" size={14} />
          {error}
        </p>
      ) : (
        <p id={`${id}-hint`} className="field__hint">
          PNG, JPEG, WebP or GIF up to 256 KiB; shown at 40 px high. Saved with the page.
        </p>
      )}
    </div>
  );
}
