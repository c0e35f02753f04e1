import type { MonitorSelection } from '@pagewatch/contract';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { DashboardFilter } from './dashboard-filter';

/** Ticked rows by id, or every monitor matching the filter (most never loaded: paged, ADR 23). */
export interface RowSelection {
  ids: ReadonlySet<number>;
  allMatching: boolean;
}

const none: RowSelection = { ids: new Set(), allMatching: false };

/** The server's view of a selection: the ticked ids, or the dashboard's filters. */
export function toServerSelection(sel: RowSelection, filter: DashboardFilter): MonitorSelection {
  if (!sel.allMatching) return { kind: 'ids', ids: [...sel.ids] };
  const q = filter.query.trim();
  return {
    kind: 'filter',
    ...(filter.status !== null ? { status: filter.status } : {}),
    ...(filter.tag !== null ? { tag: filter.tag } : {}),
    ...(filter.type !== null ? { type: filter.type } : {}),
    ...(q !== '' ? { q } : {}),
  };
}

/**
 * Rows ticked on the dashboard: a click toggles one, shift-click the range from the last one
 * clicked (in the order shown), the header box every loaded row, "all matching" the filter.
 * Changing the filters starts over, so an action never reaches rows the person cannot see.
 */
export function useRowSelection(order: readonly { id: number }[], resetKey: string) {
  const [sel, setSel] = useState<RowSelection>(none);
  const anchor = useRef<number | null>(null);
  const orderRef = useRef(order);
  useEffect(() => {
    orderRef.current = order;
  }, [order]);
  useEffect(() => {
    setSel(none);
    anchor.current = null;
  }, [resetKey]);

  const toggle = useCallback((id: number, range: boolean) => {
    const rows = orderRef.current;
    // Read now: the updater runs later, after the anchor moved to this row.
    const from =
      range && anchor.current !== null ? rows.findIndex((r) => r.id === anchor.current) : -1;
    setSel((prev) => {
      const ids = new Set(prev.allMatching ? rows.map((r) => r.id) : prev.ids);
      const on = !ids.has(id);
      const to = rows.findIndex((r) => r.id === id);
      if (from >= 0 && to >= 0) {
        for (let i = Math.min(from, to); i <= Math.max(from, to); i++) {
          if (on) ids.add(rows[i]!.id);
          else ids.delete(rows[i]!.id);
        }
      } else if (on) ids.add(id);
      else ids.delete(id);
      return { ids, allMatching: false };
    });
    anchor.current = id;
  }, []);

  const selectLoaded = useCallback((on: boolean) => {
    setSel(on ? { ids: new Set(orderRef.current.map((r) => r.id)), allMatching: false } : none);
  }, []);
  const selectAllMatching = useCallback(() => setSel({ ids: new Set(), allMatching: true }), []);
  const clear = useCallback(() => {
    setSel(none);
    anchor.current = null;
  }, []);
  const isSelected = useCallback((id: number) => sel.allMatching || sel.ids.has(id), [sel]);

  return useMemo(
    () => ({ sel, toggle, selectLoaded, selectAllMatching, clear, isSelected }),
    [sel, toggle, selectLoaded, selectAllMatching, clear, isSelected],
  );
}
