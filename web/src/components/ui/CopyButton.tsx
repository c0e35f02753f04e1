import { useEffect, useState } from 'react';
import { copyText } from '../../lib/clipboard';
import { Button } from './Button';

/** Copies `text` and says so for a moment; a failure asks the person to copy by hand. */
export function CopyButton({
  text,
  label = 'Copy',
  size = 'md',
}: {
  text: string;
  label?: string;
  size?: 'sm' | 'md';
}) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), 2500);
    return () => clearTimeout(timer);
  }, [state]);
  return (
    <>
      <Button
        size={size}
        icon={state === 'copied' ? 'check' : 'copy'}
        onClick={() => void copyText(text).then((ok) => setState(ok ? 'copied' : 'failed'))}
      >
        {state === 'copied' ? 'Copied' : label}
      </Button>
      <span className="visually-hidden" role="status">
        {state === 'copied'
          ? 'Copied to the clipboard'
          : state === 'failed'
            ? 'Copy failed; select the text and copy it by hand'
            : ''}
      </span>
    </>
  );
}
