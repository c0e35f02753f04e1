import type { ReactNode } from 'react';
import type { PublicStatusPage } from '../view-model.js';
import { ZoneNote } from './Times.js';

export interface LayoutProps {
  view: PublicStatusPage;
  base: string;
  css: string;
  scriptUrl: string;
  docTitle: string;
  /** Plain text; React escapes it into the attribute. */
  description: string;
  children: ReactNode;
}

/** The document around every public page: one inline stylesheet, one optional deferred script. */
export function Layout({
  view,
  base,
  css,
  scriptUrl,
  docTitle,
  description,
  children,
}: LayoutProps) {
  const home = base || '/';
  return (
    <html lang="en" data-theme={view.theme.mode}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{docTitle}</title>
        <meta name="description" content={description} />
        {/* No favicon request (and no 404) per visit. */}
        <link rel="icon" href="data:," />
        <link
          rel="alternate"
          type="application/atom+xml"
          title="Incidents (Atom)"
          href={`${base}/feed.atom`}
        />
        <link
          rel="alternate"
          type="application/rss+xml"
          title="Incidents (RSS)"
          href={`${base}/feed.rss`}
        />
        <style dangerouslySetInnerHTML={{ __html: css }} />
        <script src={scriptUrl} defer />
      </head>
      <body>
        <header className="top">
          <div className="wrap">
            {view.logoUrl ? <img className="logo" src={view.logoUrl} alt="" /> : null}
            <h1 dir="auto">
              <a href={home}>{view.title}</a>
            </h1>
            {/* Subscriptions (a later task) link here when the page allows them. */}
            {view.subscribeUrl ? (
              <a className="sub" href={view.subscribeUrl}>
                Subscribe to updates
              </a>
            ) : null}
          </div>
        </header>
        <main className="wrap">{children}</main>
        <footer className="wrap site">
          {view.footer ? (
            <p className="msg" dir="auto">
              {view.footer}
            </p>
          ) : null}
          <ZoneNote />
          <nav aria-label="More">
            <a href={`${base}/history`}>Incident history</a>
            <a href={`${base}/feed.atom`}>Atom feed</a>
            <a href={`${base}/feed.rss`}>RSS feed</a>
            <span>Powered by Pagewatch</span>
          </nav>
        </footer>
      </body>
    </html>
  );
}
