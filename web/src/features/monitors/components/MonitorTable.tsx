import type { MonitorRow as Row } from '@pagewatch/contract';
import { useWindowVirtualizer, type VirtualItem } from '@tanstack/react-virtual';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { formatCount } from '../../../lib/format';
import { MonitorRow } from './MonitorRow';

/** Row height before it is measured: a desktop row; phone cards measure themselves. */
const ESTIMATED_ROW_PX = 57;
/** Rows rendered beyond the viewport on each side, so fast scrolling shows no gaps. */
const OVERSCAN = 12;

/** Rows left below the viewport when the next page is asked for. */
const LOAD_AHEAD = 60;

/**
 * Where the window was scrolled, by filters and order, for this page's life: back from a monitor
 * the list starts there. The virtualiser scrolls to its first offset when it mounts, so the
 * saved one must be that offset (a later restore would be undone).
 */
const offsets = new Map<string, number>();
/** Rows' measured heights by the same key: without them rows sit at estimated places on return. */
const measured = new Map<string, VirtualItem[]>();

/**
 * The dashboard's monitors as a table whose rows are virtualised against the window's scroll:
 * the DOM holds the fifty or so on screen, and live updates re-render only those. Rows arrive
 * page by page as the person scrolls; `total` is what matches on the server. Spacer rows above
 * and below keep the table's layout and the page's scroll height.
 */
export function MonitorTable({
  monitors,
  total,
  resetKey,
  loadMore,
  loadingMore,
  selection,
}: {
  monitors: readonly Row[];
  total: number;
  resetKey: string;
  /** Asks for the next page; absent when every matching row is loaded. */
  loadMore?: () => void;
  loadingMore: boolean;
  /** Row boxes for bulk actions (editors); absent for viewers. */
  selection?: {
    isSelected: (id: number) => boolean;
    toggle: (id: number, range: boolean) => void;
    /** Ticks or clears every loaded row. */
    selectLoaded: (on: boolean) => void;
    /** How many loaded rows are ticked. */
    loadedTicked: number;
  };
}) {
  const body = useRef<HTMLTableSectionElement>(null);
  const [scrollMargin, setScrollMargin] = useState(0);
  // Where the list starts on the page; read after layout and again when the filters change.
  useLayoutEffect(() => {
    const el = body.current;
    if (el) setScrollMargin(el.getBoundingClientRect().top + window.scrollY);
  }, [resetKey]);

  const [initialOffset] = useState(() => offsets.get(resetKey) ?? 0);
  const [initialMeasurementsCache] = useState(() => measured.get(resetKey) ?? []);
  const keyRef = useRef(resetKey);
  useEffect(() => {
    keyRef.current = resetKey;
  }, [resetKey]);
  // A layout effect: its cleanup runs before the next screen resets the scroll, so that reset
  // (whose event arrives later) is never taken for the list's position.
  useLayoutEffect(() => {
    const save = () => {
      if (body.current?.isConnected) offsets.set(keyRef.current, window.scrollY);
    };
    window.addEventListener('scroll', save, { passive: true });
    return () => window.removeEventListener('scroll', save);
  }, []);

  const virtualizer = useWindowVirtualizer({
    initialOffset,
    initialMeasurementsCache,
    count: monitors.length,
    estimateSize: () => ESTIMATED_ROW_PX,
    overscan: OVERSCAN,
    scrollMargin,
    getItemKey: (i) => monitors[i]!.id,
  });
  // The first scroll can land before the rows give the page its height and be cut short:
  // a few frames more until the window is where it was.
  useEffect(() => {
    if (initialOffset <= 0) return;
    let tries = 0;
    let frame = 0;
    const settle = () => {
      if (Math.abs(window.scrollY - initialOffset) < 2 || tries++ > 30) return;
      window.scrollTo(0, initialOffset);
      frame = requestAnimationFrame(settle);
    };
    frame = requestAnimationFrame(settle);
    return () => cancelAnimationFrame(frame);
  }, [initialOffset]);
  const virtualizerRef = useRef(virtualizer);
  useLayoutEffect(() => {
    virtualizerRef.current = virtualizer;
  });
  useLayoutEffect(
    () => () => {
      measured.set(keyRef.current, virtualizerRef.current.measurementsCache);
    },
    [],
  );
  const rows = virtualizer.getVirtualItems();
  const before = rows.length > 0 ? rows[0]!.start - scrollMargin : 0;
  const after = rows.length > 0 ? virtualizer.getTotalSize() - rows[rows.length - 1]!.end : 0;
  const lastShown = rows.length > 0 ? rows[rows.length - 1]!.index : 0;
  const nearEnd = monitors.length - lastShown <= LOAD_AHEAD;
  useEffect(() => {
    if (nearEnd && !loadingMore) loadMore?.();
  }, [nearEnd, loadingMore, loadMore]);

  const columns = selection ? 7 : 6;
  return (
    <div className="mtable-wrap">
      <table className="mtable" data-testid="monitor-table" aria-rowcount={total + 1}>
        <caption className="visually-hidden">
          Monitors, {formatCount(total)} shown. Select a name to open the monitor.
        </caption>
        <thead>
          <tr aria-rowindex={1}>
            {selection && (
              <th scope="col" className="mtable__pick">
                <HeaderBox
                  ticked={selection.loadedTicked}
                  loaded={monitors.length}
                  onChange={selection.selectLoaded}
                />
              </th>
            )}
            <th scope="col" className="mtable__status">
              Status
            </th>
            <th scope="col">Monitor</th>
            <th scope="col" className="mtable__num">
              Latency
            </th>
            <th scope="col" className="mtable__num">
              Uptime 24 h
            </th>
            <th scope="col" className="mtable__spark">
              Recent checks
            </th>
            <th scope="col" className="mtable__checked">
              Checked
            </th>
          </tr>
        </thead>
        <tbody ref={body}>
          {before > 0 && <Spacer height={before} columns={columns} />}
          {rows.map((row) => (
            <MonitorRow
              key={row.key}
              monitor={monitors[row.index]!}
              index={row.index}
              measure={virtualizer.measureElement}
              selected={selection?.isSelected(monitors[row.index]!.id)}
              onSelect={selection?.toggle}
            />
          ))}
          {after > 0 && <Spacer height={after} columns={columns} />}
        </tbody>
      </table>
      {loadingMore && (
        <p className="muted mtable__more" data-testid="loading-more" role="status">
          Loading more monitors…
        </p>
      )}
    </div>
  );
}

function Spacer({ height, columns }: { height: number; columns: number }) {
  return (
    <tr className="mtable__spacer" aria-hidden="true" style={{ height }}>
      <td colSpan={columns} />
    </tr>
  );
}

/** Ticks every loaded row; mixed while only some are. */
function HeaderBox({
  ticked,
  loaded,
  onChange,
}: {
  ticked: number;
  loaded: number;
  onChange: (on: boolean) => void;
}) {
  const box = useRef<HTMLInputElement>(null);
  const mixed = ticked > 0 && ticked < loaded;
  useEffect(() => {
    if (box.current) box.current.indeterminate = mixed;
  }, [mixed]);
  return (
    <input
      ref={box}
      type="checkbox"
      className="mrow__check"
      checked={loaded > 0 && ticked >= loaded}
      aria-label="Select every loaded monitor"
      onChange={(e) => onChange(e.target.checked)}
    />
  );
}
