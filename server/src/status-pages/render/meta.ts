import type { PublicIncident, PublicStatusPage } from '../view-model.js';
import { stateLabel } from './labels.js';

/** Search results show about this much; longer descriptions are cut at a word. */
export const DESCRIPTION_MAX = 160;

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Plain text of the sanitised description HTML (tags dropped, entities decoded, spaces collapsed). */
export function plainText(html: string): string {
  return (
    html
      // Blocks and line breaks part words; inline tags (strong, a, code…) do not.
      .replace(/<\/?(?:p|br|li|ul|ol|h\d|blockquote|pre|hr)\b[^>]*>/g, ' ')
      .replace(/<[^>]*>/g, '')
      .replace(
        /&(?:#(\d+)|#x([0-9a-f]+)|(\w+));/gi,
        (all, dec?: string, hex?: string, name?: string) =>
          dec
            ? String.fromCodePoint(Number(dec))
            : hex
              ? String.fromCodePoint(parseInt(hex, 16))
              : (ENTITIES[name!.toLowerCase()] ?? all),
      )
      .replace(/\s+/g, ' ')
      .trim()
  );
}

/** At most `max` characters, cut at the last word that fits, with an ellipsis when cut. */
export function truncate(text: string, max = DESCRIPTION_MAX): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,.;:–—-]+$/, '')}…`;
}

/** `<meta name="description">` of a status page: its own description, or a plain summary. */
export function pageDescription(view: PublicStatusPage): string {
  const own = plainText(view.descriptionHtml);
  return truncate(own || `Current status and incident history of ${view.title}.`);
}

/** `<meta name="description">` of an incident's page: its state and newest public update. */
export function incidentDescription(incident: PublicIncident, view: PublicStatusPage): string {
  const latest = incident.updates[0]?.message.replace(/\s+/g, ' ').trim();
  const state = stateLabel[incident.state];
  return truncate(latest ? `${state}: ${latest}` : `${state}: ${incident.title} (${view.title}).`);
}
