import type { StatusPageInput } from '@pagewatch/contract';
import { useEffect, useState } from 'react';
import { isApiError } from '../../../lib/api';
import { fetchPreview } from '../api/status-pages';

const DEBOUNCE_MS = 500;

type State =
  | { kind: 'loading' }
  | { kind: 'ready' }
  | { kind: 'invalid' }
  | { kind: 'unavailable' }
  | { kind: 'failed'; message: string };

/**
 * A srcdoc frame inherits this app's CSP, which refuses the page's inline <style>; the same
 * rules applied as a constructed stylesheet are not inline markup, so they render.
 */
function adoptStyles(frame: HTMLIFrameElement) {
  const doc = frame.contentDocument;
  const view = doc?.defaultView;
  if (!doc || !view) return;
  const css = [...doc.querySelectorAll('style')].map((s) => s.textContent).join('\n');
  if (!css) return;
  const sheet = new view.CSSStyleSheet();
  sheet.replaceSync(css);
  doc.adoptedStyleSheets = [sheet];
}

/** The draft as the public will see it, rendered by the server in a sandboxed frame. */
export function PreviewPane({ input, id }: { input: StatusPageInput; id: string }) {
  const [html, setHtml] = useState<string | null>(null);
  const [state, setState] = useState<State>({ kind: 'loading' });
  const body = JSON.stringify(input);

  useEffect(() => {
    const abort = new AbortController();
    const timer = setTimeout(() => {
      setState((s) => (s.kind === 'unavailable' ? s : { kind: 'loading' }));
      fetchPreview(JSON.parse(body) as StatusPageInput, abort.signal).then(
        (text) => {
          setHtml(text);
          setState({ kind: 'ready' });
        },
        (error: unknown) => {
          if (abort.signal.aborted) return;
          if (isApiError(error) && error.kind === 'not_found') setState({ kind: 'unavailable' });
          else if (isApiError(error) && error.kind === 'validation_failed')
            setState({ kind: 'invalid' });
          else setState({ kind: 'failed', message: isApiError(error) ? error.title : 'Failed' });
        },
      );
    }, DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [body]);

  const status =
    state.kind === 'loading'
      ? 'Updating…'
      : state.kind === 'invalid'
        ? 'Fix the highlighted fields to update the preview.'
        : state.kind === 'failed'
          ? `The preview could not be rendered: ${state.message}.`
          : '';
  return (
    <aside id={id} className="sp-preview" aria-label="Preview">
      <div className="sp-preview__bar">
        <span className="sp-preview__title">Preview</span>
        <span className="sp-preview__status muted" role="status">
          {status}
        </span>
      </div>
      {state.kind === 'unavailable' ? (
        <p className="sp-preview__empty muted" data-testid="preview-unavailable">
          The preview is not available on this server yet. Save the page and open its public address
          to see it.
        </p>
      ) : html === null ? (
        <p className="sp-preview__empty muted">
          {state.kind === 'invalid'
            ? 'The preview appears once the highlighted fields are fixed.'
            : 'Rendering the preview…'}
        </p>
      ) : (
        <iframe
          className="sp-preview__frame"
          title="Status page preview"
          // Same origin so adoptStyles can reach in; never allow-scripts, which would undo the sandbox.
          sandbox="allow-same-origin"
          srcDoc={html}
          onLoad={(e) => adoptStyles(e.currentTarget)}
        />
      )}
    </aside>
  );
}
