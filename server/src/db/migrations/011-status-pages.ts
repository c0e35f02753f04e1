import type { Kysely, Migration } from 'kysely';
import type { Engine } from '../database.js';

/**
 * Public status pages, their sections and components, and subscribers (issue 6). Components
 * are rows, not JSON, so "is this monitor on a published page" (badges) is one indexed join
 * and deleting a monitor removes it from every page.
 */
export function statusPages(engine: Engine): Migration {
  const id = engine === 'sqlite' ? ('integer' as const) : ('bigserial' as const);
  const auto = engine === 'sqlite';
  const ms = 'bigint' as const;
  const bytes = engine === 'sqlite' ? ('blob' as const) : ('bytea' as const);
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('status_pages')
        .addColumn('id', id, (c) => (auto ? c.primaryKey().autoIncrement() : c.primaryKey()))
        .addColumn('slug', 'text', (c) => c.notNull().unique())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('custom_domain', 'text', (c) => c.unique())
        .addColumn('show', 'text', (c) => c.notNull())
        .addColumn('theme', 'text', (c) => c.notNull())
        .addColumn('subscriptions', 'text', (c) => c.notNull())
        .addColumn('footer', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('published', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('logo', bytes)
        .addColumn('logo_type', 'text')
        .addColumn('logo_hash', 'text')
        .addColumn('created_at', ms, (c) => c.notNull())
        .addColumn('updated_at', ms, (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('status_page_sections')
        .addColumn('id', id, (c) => (auto ? c.primaryKey().autoIncrement() : c.primaryKey()))
        .addColumn('page_id', 'integer', (c) =>
          c.notNull().references('status_pages.id').onDelete('cascade'),
        )
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('status_page_sections_page')
        .on('status_page_sections')
        .columns(['page_id', 'position'])
        .execute();

      await db.schema
        .createTable('status_page_components')
        .addColumn('id', id, (c) => (auto ? c.primaryKey().autoIncrement() : c.primaryKey()))
        .addColumn('page_id', 'integer', (c) =>
          c.notNull().references('status_pages.id').onDelete('cascade'),
        )
        .addColumn('section_id', 'integer', (c) =>
          c.notNull().references('status_page_sections.id').onDelete('cascade'),
        )
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('monitor_id', 'integer', (c) =>
          c.notNull().references('monitors.id').onDelete('cascade'),
        )
        .addColumn('display_name', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      await db.schema
        .createIndex('status_page_components_page')
        .on('status_page_components')
        .columns(['page_id', 'section_id', 'position'])
        .execute();
      await db.schema
        .createIndex('status_page_components_monitor')
        .on('status_page_components')
        .columns(['monitor_id', 'page_id'])
        .execute();

      await db.schema
        .createTable('status_subscribers')
        .addColumn('id', id, (c) => (auto ? c.primaryKey().autoIncrement() : c.primaryKey()))
        .addColumn('page_id', 'integer', (c) =>
          c.notNull().references('status_pages.id').onDelete('cascade'),
        )
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('address', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        // Random, unguessable; in the confirm and unsubscribe links of every message.
        .addColumn('token', 'text', (c) => c.notNull().unique())
        // Origin the subscription came from: links in mail when no public URL is configured.
        .addColumn('base_url', 'text', (c) => c.notNull())
        .addColumn('created_at', ms, (c) => c.notNull())
        .addColumn('confirmed_at', ms)
        .addColumn('unsubscribed_at', ms)
        .addUniqueConstraint('status_subscribers_address', ['page_id', 'kind', 'address'])
        .execute();
    },
  };
}
