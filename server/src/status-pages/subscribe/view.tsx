import { createHash } from 'node:crypto';
import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';

/**
 * Plain, self-contained styles: these pages load nothing else and need no script. Text 4.5:1 and
 * field edges (--ctl) 3:1 in both schemes; the dark button carries dark text (docs/accessibility.md).
 */
const CSS = `:root{color-scheme:light dark;--fg:#111827;--bg:#f8fafc;--card:#fff;--line:#d1d5db;--muted:#4b5563;--accent:#2563eb;--on-accent:#fff;--ctl:#6b7280;--bad:#b91c1c}
@media (prefers-color-scheme:dark){:root{--fg:#f3f4f6;--bg:#0b1120;--card:#111827;--line:#374151;--muted:#9ca3af;--accent:#60a5fa;--on-accent:#0b1120;--ctl:#7b8494;--bad:#f87171}}
*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;background:var(--bg);color:var(--fg)}
main{max-width:34rem;margin:3rem auto;padding:0 1rem}.card{background:var(--card);border:1px solid var(--line);border-radius:12px;padding:1.5rem}
h1{font-size:1.35rem;margin:0 0 .75rem}p{margin:.5rem 0}.muted{color:var(--muted);font-size:.9rem}
label{display:block;font-weight:600;margin:1rem 0 .25rem}input{width:100%;font:inherit;padding:.55rem .7rem;border:1px solid var(--ctl);border-radius:8px;background:var(--bg);color:var(--fg)}
button{margin-top:1rem;font:inherit;font-weight:600;padding:.55rem 1.1rem;border:0;border-radius:8px;background:var(--accent);color:var(--on-accent);cursor:pointer}
button:focus-visible,input:focus-visible,a:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
.error{color:var(--bad);font-weight:600}a{color:var(--accent)}fieldset{border:0;padding:0;margin:0}`;

/** The CSP that lets exactly this inline style run (the app's default refuses inline styles). */
export const subscribeCsp = `default-src 'none'; style-src 'sha256-${createHash('sha256').update(CSS).digest('base64')}'; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`;

function Shell({ title, children }: { title: string; children: ReactNode }) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>{title}</title>
        {/* No favicon request (and no 404 in the console) per visit. */}
        <link rel="icon" href="data:," />
        <style dangerouslySetInnerHTML={{ __html: CSS }} />
      </head>
      <body>
        <main>
          <div className="card">{children}</div>
        </main>
      </body>
    </html>
  );
}

const page = (node: ReactNode): string => `<!doctype html>${renderToStaticMarkup(node)}`;

export interface FormState {
  slug: string;
  pageTitle: string;
  email: boolean;
  webhook: boolean;
  error?: string | null;
  values?: { email?: string; webhook?: string };
}

/** The subscribe form: one small form per kind the page offers. */
export function subscribeForm(s: FormState): string {
  const action = `/status/${encodeURIComponent(s.slug)}/subscribe`;
  return page(
    <Shell title={`Subscribe to ${s.pageTitle}`}>
      <h1 dir="auto">Get updates from {s.pageTitle}</h1>
      <p className="muted">
        We send a message when an incident starts, changes or ends, and when maintenance is planned.
      </p>
      {s.error ? (
        <p className="error" role="alert">
          {s.error}
        </p>
      ) : null}
      {s.email ? (
        <form method="post" action={action}>
          <input type="hidden" name="kind" value="email" />
          <label htmlFor="email">Email address</label>
          <input
            id="email"
            name="address"
            type="email"
            required
            maxLength={254}
            autoComplete="email"
            defaultValue={s.values?.email ?? ''}
          />
          <button type="submit">Subscribe by email</button>
        </form>
      ) : null}
      {s.webhook ? (
        <form method="post" action={action}>
          <input type="hidden" name="kind" value="webhook" />
          <label htmlFor="webhook">Webhook URL</label>
          <input
            id="webhook"
            name="address"
            type="url"
            required
            maxLength={2048}
            placeholder="https://example.com/hooks/status"
            defaultValue={s.values?.webhook ?? ''}
          />
          <p className="muted">We POST JSON to this URL for every notice.</p>
          <button type="submit">Subscribe with a webhook</button>
        </form>
      ) : null}
      <p className="muted">
        <a href={`/status/${encodeURIComponent(s.slug)}`}>Back to the status page</a>
      </p>
    </Shell>,
  );
}

/** A plain message page (done, check your inbox, link no longer valid). */
export function messagePage(title: string, lines: string[], back?: string): string {
  return page(
    <Shell title={title}>
      <h1 dir="auto">{title}</h1>
      {lines.map((l, i) => (
        <p key={i} dir="auto">
          {l}
        </p>
      ))}
      {back ? (
        <p className="muted">
          <a href={back}>Back to the status page</a>
        </p>
      ) : null}
    </Shell>,
  );
}

/** Confirm and unsubscribe links show a button: mail scanners that open links change nothing. */
export function actionPage(title: string, text: string, action: string, button: string): string {
  return page(
    <Shell title={title}>
      <h1 dir="auto">{title}</h1>
      <p dir="auto">{text}</p>
      <form method="post" action={action}>
        <button type="submit">{button}</button>
      </form>
    </Shell>,
  );
}
