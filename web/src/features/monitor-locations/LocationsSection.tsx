import './monitor-locations.css';
import { useQuery } from '@tanstack/react-query';
import { locationChoicesQuery } from './api';
import type { LocationDraft } from './useLocationDraft';

/**
 * The monitor form's Locations (ADR 58): where it is checked from, and "down when k of its
 * locations fail". Push and group monitors are decided on this server: local only.
 */
export function LocationsSection({ draft, type }: { draft: LocationDraft; type: string }) {
  const { data } = useQuery(locationChoicesQuery());
  const choices = data?.items ?? [{ id: 'local', name: 'local', region: null, online: null }];
  const localOnly = type === 'push' || type === 'group';
  const n = draft.locations.length;
  return (
    <fieldset className="form__section" id="locations" data-testid="locations-section">
      <legend className="form__legend">Locations</legend>
      <div className="field">
        <span className="field__label" id="locations-label">
          Checked from
        </span>
        <div className="mloc-choices" role="group" aria-labelledby="locations-label">
          {choices.map((c) => (
            <label key={c.id} className="mloc-choice">
              <input
                type="checkbox"
                checked={draft.locations.includes(c.id)}
                disabled={localOnly && c.id !== 'local'}
                onChange={(e) => draft.toggle(c.id, e.target.checked)}
              />
              <span dir="auto">{c.name}</span>
              {c.region && <span className="muted"> · {c.region}</span>}
              {c.online === false && (
                <span className="badge badge--unknown" title="No probe of this location reports">
                  offline
                </span>
              )}
            </label>
          ))}
        </div>
        <p className="field__hint">
          {localOnly
            ? 'Push and group monitors are decided on this server.'
            : 'Several locations tell “down” from “down from here”: some failing is Regional.'}
        </p>
        {draft.error && (
          <p className="field__error" role="alert">
            {draft.error}
          </p>
        )}
      </div>
      {n > 1 && (
        <div className="field">
          <label className="field__label" htmlFor="location-quorum">
            Down when
          </label>
          <div className="mloc-quorum">
            <select
              id="location-quorum"
              className="input select"
              value={draft.quorum === null ? '' : String(draft.quorum)}
              onChange={(e) =>
                draft.setQuorum(e.target.value === '' ? null : Number(e.target.value))
              }
            >
              <option value="">a majority</option>
              {Array.from({ length: n }, (_, i) => i + 1).map((k) => (
                <option key={k} value={k}>
                  {k}
                </option>
              ))}
            </select>
            <span>of its {n} locations fail</span>
          </div>
          <p className="field__hint">
            Fewer failing is Regional (amber, the places named); fewer reporting than that is
            Unknown.
          </p>
        </div>
      )}
    </fieldset>
  );
}
