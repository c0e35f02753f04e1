import { ConfigDocument } from '@pagewatch/contract';
import { z } from 'zod';

let cached: Record<string, unknown> | null = null;

/**
 * The document's JSON Schema, from the contract's zod schema: what a file may hold, before
 * defaults (fields with one may be left out). Cross-field rules and key references are checked
 * by `pagewatch validate` and the server, not by the schema.
 */
export function configJsonSchema(): Record<string, unknown> {
  cached ??= {
    ...z.toJSONSchema(ConfigDocument, { io: 'input', unrepresentable: 'any' }),
    title: 'Pagewatch configuration',
    description:
      'Monitors, notification channels, status pages, maintenance windows and SLOs (docs/config-as-code.md)',
  };
  return cached;
}
