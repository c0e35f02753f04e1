import { renderToStaticMarkup } from 'react-dom/server';
import { ENHANCE_URL } from '../enhance.js';
import type { PublicIncident, PublicStatusPage } from '../view-model.js';
import { barDatesCss } from './Bars.js';
import { pageCss, styleHash } from './css.js';
import { Layout } from './Layout.js';
import { TimesContext } from './Times.js';
import { incidentDescription, pageDescription } from './meta.js';
import { HistoryBody, IncidentBody, StatusPageBody } from './pages.js';

export type RenderTarget =
  { kind: 'page' } | { kind: 'history' } | { kind: 'incident'; incident: PublicIncident };

export interface RenderedHtml {
  html: string;
  /** CSP source allowing exactly this page's stylesheet. */
  styleSrc: string;
}

/** A public page as a complete HTML document (React escapes every user-typed string). */
export function renderStatusHtml(
  view: PublicStatusPage,
  base: string,
  target: RenderTarget,
): RenderedHtml {
  const dates = view.sections.flatMap((s) => s.components).find((c) => c.days)?.days;
  const css =
    pageCss(view.theme.mode, view.theme.accent) +
    (dates ? barDatesCss(dates.map((d) => d.date)) : '');
  const body =
    target.kind === 'page' ? (
      <StatusPageBody view={view} base={base} />
    ) : target.kind === 'history' ? (
      <HistoryBody view={view} base={base} />
    ) : (
      <IncidentBody incident={target.incident} base={base} />
    );
  const docTitle =
    target.kind === 'incident'
      ? `${target.incident.title} · ${view.title}`
      : target.kind === 'history'
        ? `History · ${view.title}`
        : `${view.title} status`;
  const description =
    target.kind === 'incident' ? incidentDescription(target.incident, view) : pageDescription(view);
  const times = { zone: view.timeZone, now: Date.parse(view.generatedAt) };
  const markup = renderToStaticMarkup(
    <TimesContext value={times}>
      <Layout
        view={view}
        base={base}
        css={css}
        scriptUrl={ENHANCE_URL}
        docTitle={docTitle}
        description={description}
      >
        {body}
      </Layout>
    </TimesContext>,
  );
  return { html: `<!doctype html>${markup}`, styleSrc: styleHash(css) };
}

const NOT_FOUND_CSS =
  'html{font:16px/1.5 system-ui,sans-serif;color-scheme:light dark}body{max-width:40rem;margin:4rem auto;padding:0 1rem}';

/** The same page for an unknown and an unpublished status page: nothing says which. */
export function renderNotFound(): RenderedHtml {
  const markup = renderToStaticMarkup(
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>Page not found</title>
        <style dangerouslySetInnerHTML={{ __html: NOT_FOUND_CSS }} />
      </head>
      <body>
        <main>
          <h1>Page not found</h1>
          <p>There is no status page at this address.</p>
        </main>
      </body>
    </html>,
  );
  return { html: `<!doctype html>${markup}`, styleSrc: styleHash(NOT_FOUND_CSS) };
}
