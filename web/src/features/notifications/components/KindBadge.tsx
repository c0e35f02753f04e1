import type { ChannelKind } from '@pagewatch/contract';
import { channelKindSpecs } from '../kinds';

/** The kind as a small tile and its name. */
export function KindBadge({ kind }: { kind: ChannelKind }) {
  const spec = channelKindSpecs[kind];
  return (
    <span className="kind">
      <span className={`kind__tile kind__tile--${kind}`} aria-hidden="true">
        {spec.glyph}
      </span>
      <span className="kind__label">{spec.label}</span>
    </span>
  );
}
