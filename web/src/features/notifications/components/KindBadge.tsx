import type { ChannelKind } from '@pagewatch/contract';
import '../../../styles/notifications.css';
import { channelKindSpecs } from '../kinds';

/** The kind as a small tile and its name (compact: the tile, named for assistive tech). */
export function KindBadge({ kind, compact = false }: { kind: ChannelKind; compact?: boolean }) {
  const spec = channelKindSpecs[kind];
  return (
    <span className="kind" title={compact ? spec.label : undefined}>
      <span className={`kind__tile kind__tile--${kind}`} aria-hidden="true">
        {spec.glyph}
      </span>
      <span className={compact ? 'visually-hidden' : 'kind__label'}>{spec.label}</span>
    </span>
  );
}
