import type { ApiKey } from '@pagewatch/contract';
import { useEffect, useRef } from 'react';
import { Button } from '../../../../components/ui/Button';
import { CopyButton } from '../../../../components/ui/CopyButton';
import { Icon } from '../../../../components/ui/Icon';
import { aRole } from '../../../auth/roles';

/** The whole key, this one time: copy it now, it cannot be shown again. */
export function NewKeyNotice({
  created,
  onDone,
}: {
  created: { apiKey: ApiKey; secret: string };
  onDone: () => void;
}) {
  const ref = useRef<HTMLElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <section ref={ref} className="newkey" tabIndex={-1} aria-labelledby="newkey-title">
      <h3 id="newkey-title" className="newkey__title">
        <Icon name="alertTriangle" size={18} />
        Copy the key for “{created.apiKey.name}” now
      </h3>
      <p>
        This is the only time Pagewatch shows it; only a fingerprint is kept. It acts as{' '}
        {aRole(created.apiKey.role)}: keep it secret like a password.
      </p>
      <div className="secret-row">
        <label htmlFor="new-key" className="visually-hidden">
          New API key
        </label>
        <input
          id="new-key"
          className="input mono newkey__secret"
          readOnly
          value={created.secret}
          onFocus={(e) => e.currentTarget.select()}
          spellCheck={false}
        />
        <CopyButton text={created.secret} label="Copy key" />
      </div>
      <p className="muted newkey__usage">
        Send it as <code>Authorization: Bearer {created.apiKey.prefix}…</code>
      </p>
      <div className="button-row">
        <Button variant="primary" onClick={onDone}>
          I have copied it
        </Button>
      </div>
    </section>
  );
}
