import type { ImportItem, ImportOutcome } from '@pagewatch/contract';

/** How many items of an import ended each way, and the audit line that says so. */
export function tallyImport(
  origin: string,
  items: readonly ImportItem[],
): { counts: Record<ImportOutcome, number>; summary: string } {
  const counts: Record<ImportOutcome, number> = { created: 0, existing: 0, merged: 0, skipped: 0 };
  for (const i of items) counts[i.outcome] += 1;
  const summary = `Imported from ${origin}: ${counts.created} created, ${counts.existing} already there, ${counts.skipped} skipped`;
  return { counts, summary };
}
