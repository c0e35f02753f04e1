import { useEffect, useMemo, useRef, useState } from 'react';

/** How long after the last scroll the list may reorder again. */
const SCROLL_SETTLE_MS = 1_500;

/**
 * Whether the person is pointing at or scrolling the list: while they are, rows must not move
 * under the pointer when live results or a refetch would reorder them.
 */
export function useListHold() {
  const [hovered, setHovered] = useState(false);
  const [scrolling, setScrolling] = useState(false);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onScroll = () => {
      setScrolling(true);
      clearTimeout(timer);
      timer = setTimeout(() => setScrolling(false), SCROLL_SETTLE_MS);
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      window.removeEventListener('scroll', onScroll);
      clearTimeout(timer);
    };
  }, []);
  const handlers = useMemo(
    () => ({
      onPointerEnter: (e: { pointerType: string }) => {
        if (e.pointerType === 'mouse') setHovered(true);
      },
      onPointerLeave: () => setHovered(false),
    }),
    [],
  );
  return { held: hovered || scrolling, handlers };
}

/**
 * The rows in the order they had when the hold began, with their latest values; rows that
 * arrived meanwhile (next pages) follow, rows that left are dropped. Without a hold, as given.
 */
export function useHeldOrder<T extends { id: number }>(
  rows: readonly T[],
  held: boolean,
): readonly T[] {
  const latest = useRef(rows);
  useEffect(() => {
    latest.current = rows;
  }, [rows]);
  const [frozen, setFrozen] = useState<readonly number[] | null>(null);
  useEffect(() => {
    setFrozen(held ? latest.current.map((r) => r.id) : null);
  }, [held]);
  return useMemo(() => (frozen ? arrange(rows, frozen) : rows), [rows, frozen]);
}

export function arrange<T extends { id: number }>(
  rows: readonly T[],
  order: readonly number[],
): T[] {
  const byId = new Map(rows.map((r) => [r.id, r]));
  const out: T[] = [];
  for (const id of order) {
    const row = byId.get(id);
    if (row) {
      out.push(row);
      byId.delete(id);
    }
  }
  for (const row of rows) if (byId.has(row.id)) out.push(row);
  return out;
}
