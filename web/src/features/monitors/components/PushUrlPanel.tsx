import type { Monitor } from '@pagewatch/contract';
import '../../../styles/push.css';
import { useState } from 'react';
import { Button } from '../../../components/ui/Button';
import { ConfirmDialog } from '../../../components/ui/ConfirmDialog';
import { CopyButton } from '../../../components/ui/CopyButton';
import { ErrorNotice, Notice } from '../../../components/ui/Notice';
import { formatSeconds } from '../../../lib/format';
import { useCan } from '../../auth/api/session';
import { useRotatePushToken } from '../api/mutations';

type PushMonitor = Extract<Monitor, { type: 'push' }>;

/** The push URL as a job calls it: the server's public URL when it has one, else this origin. */
export const absolutePushUrl = (pushUrl: string, origin = window.location.origin): string =>
  new URL(pushUrl, origin).href;

/** Shell lines for the common cases; -f makes curl fail on an error answer, -m bounds it. */
export function pushExamples(url: string): { title: string; command: string }[] {
  const curl = 'curl -fsS -m 10 --retry 3 -o /dev/null';
  return [
    { title: 'When the job succeeds', command: `${curl} ${url}` },
    {
      title: 'Report a failure, with a message',
      command: `${curl} "${url}?status=down&msg=Disk%20full"`,
    },
    {
      title: 'Time a run: start, then its exit status (0 is up)',
      command: `${curl} ${url}/start\n./backup.sh\n${curl} ${url}/$?`,
    },
    { title: 'Only report failures', command: `./backup.sh || ${curl} ${url}/fail` },
  ];
}

/** Where the job sends its pings: the URL to copy, examples, and a way to replace a leaked one. */
export function PushUrlPanel({ monitor }: { monitor: PushMonitor }) {
  const canEdit = useCan('editor');
  const rotate = useRotatePushToken(monitor.id);
  const [confirming, setConfirming] = useState(false);
  const url = monitor.pushUrl ? absolutePushUrl(monitor.pushUrl) : null;
  const grace = monitor.graceSeconds;
  return (
    <section className="panel push" aria-labelledby="push-heading">
      <div className="panel__head">
        <h2 id="push-heading" className="panel__title">
          Push URL
        </h2>
        {canEdit && url && (
          <Button
            size="sm"
            icon="refresh"
            onClick={() => {
              rotate.reset();
              setConfirming(true);
            }}
          >
            New URL
          </Button>
        )}
      </div>
      <p className="push__intro">
        The job calls this URL each time it runs, by GET or POST. Pagewatch expects a ping{' '}
        {monitor.schedule.kind === 'interval' ? (
          `every ${formatSeconds(monitor.interval)}`
        ) : (
          <>
            on <code>{monitor.schedule.expression}</code> (
            {monitor.schedule.timezone.replaceAll('_', ' ')})
          </>
        )}
        {grace > 0 ? `, and waits ${formatSeconds(grace)} longer` : ''} before counting it as
        missed.
      </p>
      {url ? (
        <>
          <div className="push__url">
            <label htmlFor="push-url" className="visually-hidden">
              Push URL
            </label>
            <input
              id="push-url"
              className="input mono push__input"
              readOnly
              value={url}
              spellCheck={false}
              onFocus={(e) => e.currentTarget.select()}
            />
            <CopyButton text={url} label="Copy URL" />
          </div>
          <h3 className="push__subtitle">Examples</h3>
          <ul className="push__examples">
            {pushExamples(url).map((ex) => (
              <li key={ex.title} className="push__example">
                <div className="push__example-head">
                  <span>{ex.title}</span>
                  <CopyButton text={ex.command} size="sm" />
                </div>
                <pre className="push__code" tabIndex={0}>
                  <code>{ex.command}</code>
                </pre>
              </li>
            ))}
          </ul>
          <p className="muted push__more">
            Add <code>?msg=…</code> to keep a note with the ping (or POST up to 1,000 characters of
            log as the body) and <code>?ping=</code> with the run time in milliseconds.
          </p>
        </>
      ) : (
        <Notice title="Only editors see the push URL">
          Its token starts with <code>{monitor.pushTokenHint}</code>. Anyone holding the URL can
          report for this monitor, so it is kept to people who may change monitors.
        </Notice>
      )}
      <ConfirmDialog
        open={confirming}
        title="Replace the push URL?"
        confirmLabel="Replace URL"
        tone="danger"
        busy={rotate.isPending}
        error={rotate.error ? <ErrorNotice error={rotate.error} /> : undefined}
        onCancel={() => setConfirming(false)}
        onConfirm={() => rotate.mutate(undefined, { onSuccess: () => setConfirming(false) })}
      >
        The current URL stops working at once: jobs still calling it get “not found” and the monitor
        goes down until they use the new one.
      </ConfirmDialog>
    </section>
  );
}
