import '../../styles/config.css';
import type { ConfigPropertyChange } from '@pagewatch/contract';

/** A property's value as one short line: text as is, anything else as JSON. */
function shown(value: unknown): string {
  if (value === undefined) return '(none)';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

/** Property changes, last applied → live; secrets say only whether they changed. */
export function DriftChanges({ changes }: { changes: readonly ConfigPropertyChange[] }) {
  return (
    <ul className="drift-changes">
      {changes.map((c) => (
        <li key={c.path}>
          <code>{c.path}</code>:{' '}
          {c.secret ? (
            <span>secret {c.secret === 'changed' ? 'changed' : 'unchanged'}</span>
          ) : (
            <>
              <span className="drift-changes__before">{shown(c.before)}</span>
              {' → '}
              <span className="drift-changes__after">{shown(c.after)}</span>
            </>
          )}
        </li>
      ))}
    </ul>
  );
}
