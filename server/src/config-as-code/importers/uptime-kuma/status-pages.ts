import { StatusPageEntry, statusPageLimits, type ImportItem } from '@pagewatch/contract';
import { item, kumaKeys, skipped } from './keys.js';
import type { KumaMonitor, KumaStatusPage } from './source.js';

export interface MappedStatusPages {
  entries: StatusPageEntry[];
  items: ImportItem[];
}

/** Kuma accepts upper case and more in slugs; Pagewatch's are lower-case (SPEC §5). */
const slugOf = (slug: string): string =>
  slug
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+/, '')
    .slice(0, 63);

/** Kuma's groups become sections, their monitors components (in Kuma's order). */
export function mapStatusPages(
  pages: readonly KumaStatusPage[],
  monitors: readonly KumaMonitor[],
  monitorKeyOf: Map<number, string>,
): MappedStatusPages {
  const names = new Map(monitors.map((m) => [m.id, m.name]));
  const out: MappedStatusPages = { entries: [], items: [] };
  for (const page of pages) {
    const notes: string[] = [];
    const source = `status page #${page.id} (/status/${page.slug})`;
    const slug = slugOf(page.slug);
    if (slug !== page.slug) notes.push(`Its address became /status/${slug}`);
    const placed = new Set<string>();
    const sections = page.groups.slice(0, statusPageLimits.sectionsMax).map((g) => ({
      title: g.name.slice(0, 100),
      components: g.monitorIds.flatMap((id) => {
        const key = monitorKeyOf.get(id);
        if (key === undefined) {
          notes.push(
            `"${names.get(id) ?? `monitor #${id}`}" of section "${g.name}" was not imported, so it is not on the page`,
          );
          return [];
        }
        if (placed.has(key)) return [];
        placed.add(key);
        return [{ monitor: key }];
      }),
    }));
    if (page.groups.length > statusPageLimits.sectionsMax) {
      notes.push(`Only the first ${statusPageLimits.sectionsMax} sections were kept`);
    }
    if (page.customDomains.length > 1) {
      notes.push(`Only the first custom domain (${page.customDomains[0]}) was kept`);
    }
    const entry = {
      key: kumaKeys.statusPage(page.id),
      slug,
      title: page.title.slice(0, 100),
      description: page.description.slice(0, statusPageLimits.descriptionMax),
      customDomain: page.customDomains[0] ?? null,
      sections,
      theme: { mode: page.theme === 'dark' ? 'dark' : page.theme === 'light' ? 'light' : 'auto' },
      footer: page.footerText.slice(0, statusPageLimits.footerMax),
      published: page.published,
    };
    const parsed = StatusPageEntry.safeParse(entry);
    if (!parsed.success) {
      const why = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
      out.items.push(
        skipped('statusPage', source, page.title, `Pagewatch refuses its settings: ${why}`, notes),
      );
      continue;
    }
    notes.push('Its icon, custom CSS and analytics tag are not carried over');
    out.entries.push(parsed.data);
    out.items.push(item('statusPage', source, page.title, entry.key, notes));
  }
  return out;
}
