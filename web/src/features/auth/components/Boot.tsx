import { Button } from '../../../components/ui/Button';
import { ErrorNotice } from '../../../components/ui/Notice';

/** While the session is looked up: nothing for a moment, then a quiet spinner. */
export function Booting() {
  return (
    <div className="boot" role="status" aria-live="polite">
      <span className="spinner boot__spinner" aria-hidden="true" />
      <span className="visually-hidden">Loading Pagewatch…</span>
    </div>
  );
}

/** The session could not be looked up at all (server down, network gone). */
export function BootError({
  error,
  onRetry,
  busy,
}: {
  error: unknown;
  onRetry: () => void;
  busy: boolean;
}) {
  return (
    <main id="main" className="auth-page">
      <div className="auth-card">
        <ErrorNotice
          error={error}
          action={
            <Button size="sm" busy={busy} onClick={onRetry}>
              Try again
            </Button>
          }
        />
      </div>
    </main>
  );
}
