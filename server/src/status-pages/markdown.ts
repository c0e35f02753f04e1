import MarkdownIt from 'markdown-it';
import sanitizeHtml from 'sanitize-html';

// Raw HTML off and links validated by markdown-it; the sanitiser is the second, stricter wall.
const md = new MarkdownIt({ html: false, linkify: true, typographer: false });

const allowed: sanitizeHtml.IOptions = {
  allowedTags: [
    'p',
    'br',
    'strong',
    'em',
    'del',
    's',
    'code',
    'pre',
    'blockquote',
    'ul',
    'ol',
    'li',
    'a',
    'h2',
    'h3',
    'h4',
    'hr',
  ],
  allowedAttributes: { a: ['href', 'rel'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  transformTags: {
    a: sanitizeHtml.simpleTransform('a', { rel: 'nofollow ugc noopener' }),
    // A page title is the only h1; description headings start one level lower.
    h1: 'h2',
    h5: 'h4',
    h6: 'h4',
  },
};

/** Descriptions change only when a page is edited: sanitising once per text, not per render. */
const rendered = new Map<string, string>();
const RENDERED_MAX = 200;

/** A page description as safe HTML: Markdown without raw HTML, then an allow-list. */
export function renderMarkdown(source: string): string {
  if (!source.trim()) return '';
  const known = rendered.get(source);
  if (known !== undefined) return known;
  const html = sanitizeHtml(md.render(source), allowed);
  if (rendered.size >= RENDERED_MAX) rendered.delete(rendered.keys().next().value!);
  rendered.set(source, html);
  return html;
}
