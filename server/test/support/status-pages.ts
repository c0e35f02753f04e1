import type { StatusPageInput } from '@pagewatch/contract';
import type { Database } from '../../src/db/database.js';
import type { EventHub } from '../../src/lib/event-hub.js';

export interface TestPage {
  slug?: string;
  title?: string;
  description?: string;
  customDomain?: string | null;
  footer?: string;
  published?: boolean;
  show?: Partial<{ uptimeBars: boolean; latencyChart: boolean; currentLatency: boolean }>;
  theme?: Partial<{ mode: 'auto' | 'light' | 'dark'; accent: string }>;
  subscriptions?: { email: boolean; webhook: boolean };
  sections?: {
    title?: string;
    components: NonNullable<StatusPageInput['sections']>[number]['components'];
  }[];
  logo?: { bytes: Buffer; type: string; hash: string };
}

let seq = 0;

/**
 * Writes a status page straight into its tables (the editor's services are another module's),
 * then announces it as the editor does, so caches see it.
 */
export async function insertStatusPage(
  database: Database,
  hub: EventHub | null,
  page: TestPage = {},
): Promise<number> {
  const db = database.db;
  const now = Date.now();
  const { id } = await db
    .insertInto('status_pages')
    .values({
      slug: page.slug ?? `page-${process.pid}-${++seq}`,
      title: page.title ?? 'Acme status',
      description: page.description ?? '',
      custom_domain: page.customDomain ?? null,
      show: JSON.stringify({
        uptimeBars: true,
        latencyChart: false,
        currentLatency: false,
        ...page.show,
      }),
      theme: JSON.stringify({ mode: 'auto', accent: '#2563eb', ...page.theme }),
      subscriptions: JSON.stringify({
        email: false,
        webhook: false,
        emailChannelId: null,
        ...page.subscriptions,
      }),
      footer: page.footer ?? '',
      published: page.published === false ? 0 : 1,
      logo: page.logo?.bytes ?? null,
      logo_type: page.logo?.type ?? null,
      logo_hash: page.logo?.hash ?? null,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (const [position, section] of (page.sections ?? []).entries()) {
    const s = await db
      .insertInto('status_page_sections')
      .values({ page_id: id, position, title: section.title ?? '' })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const [i, c] of section.components.entries()) {
      await db
        .insertInto('status_page_components')
        .values({
          page_id: id,
          section_id: s.id,
          position: i,
          monitor_id: c.monitorId,
          display_name: c.displayName ?? '',
          description: c.description ?? '',
        })
        .execute();
    }
  }
  hub?.publish({ kind: 'status-page', change: 'created', pageId: Number(id) });
  return Number(id);
}

/** Changes columns of a stored page and announces it. */
export async function updateStatusPage(
  database: Database,
  hub: EventHub,
  pageId: number,
  values: { published?: boolean; custom_domain?: string | null; title?: string },
): Promise<void> {
  const { published, ...rest } = values;
  await database.db
    .updateTable('status_pages')
    .set({ ...rest, ...(published === undefined ? {} : { published: published ? 1 : 0 }) })
    .where('id', '=', pageId)
    .execute();
  hub.publish({ kind: 'status-page', change: 'updated', pageId });
}
