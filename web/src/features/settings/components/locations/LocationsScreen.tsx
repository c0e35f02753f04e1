import type { LocationView, ProbeTokenCreated } from '@pagewatch/contract';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Button } from '../../../../components/ui/Button';
import { ConfirmDialog } from '../../../../components/ui/ConfirmDialog';
import { CopyButton } from '../../../../components/ui/CopyButton';
import { ErrorNotice, Notice } from '../../../../components/ui/Notice';
import { LoadingBlock } from '../../../../components/ui/Skeleton';
import { locationsQuery, useLocationActions } from '../../api/locations';
import { ProbeRow } from './ProbeRow';

type Actions = ReturnType<typeof useLocationActions>;
type Pending =
  { kind: 'delete'; location: LocationView } | { kind: 'revoke'; probeId: number; name: string };

/** The token of a probe, shown once with the command that starts it. */
function TokenShownOnce({ created, onDone }: { created: ProbeTokenCreated; onDone: () => void }) {
  return (
    <Notice tone="info" className="section-gap" title={`Token for ${created.probe.name}`}>
      <p>Run this where the probe should check from. The token is shown only now.</p>
      <pre className="loc-command" data-testid="probe-command">
        {created.command}
      </pre>
      <div className="loc-actions">
        <CopyButton text={created.command} label="Copy command" size="sm" />
        <Button size="sm" variant="ghost" onClick={onDone}>
          Done
        </Button>
      </div>
    </Notice>
  );
}

function LocationCard({
  location,
  actions,
  onCreated,
  onPending,
}: {
  location: LocationView;
  actions: Actions;
  onCreated: (c: ProbeTokenCreated) => void;
  onPending: (p: Pending) => void;
}) {
  const [name, setName] = useState(location.name);
  const [probeName, setProbeName] = useState('');
  const rename = (e: FormEvent) => {
    e.preventDefault();
    actions.rename.mutate({ id: location.id, body: { name, region: location.region } });
  };
  const addProbe = (e: FormEvent) => {
    e.preventDefault();
    actions.addProbe.mutate(
      { id: location.id, name: probeName },
      { onSuccess: (c) => (setProbeName(''), onCreated(c)) },
    );
  };
  const state = location.builtIn
    ? 'Built-in scheduler'
    : location.online
      ? 'Online'
      : location.probes.length === 0
        ? 'No probes yet'
        : 'Offline';
  return (
    <section className="loc-card section-gap" aria-labelledby={`loc-${location.id}`}>
      <div className="settings-head">
        <h3 id={`loc-${location.id}`}>
          {location.name} {location.region && <span className="muted">· {location.region}</span>}
        </h3>
        <span
          className={`loc-pill ${location.online === false ? 'loc-pill--down' : 'loc-pill--up'}`}
        >
          {state}
        </span>
      </div>
      <form className="loc-form" onSubmit={rename}>
        <label className="visually-hidden" htmlFor={`name-${location.id}`}>
          Name of {location.name}
        </label>
        <input
          id={`name-${location.id}`}
          className="input"
          value={name}
          maxLength={60}
          onChange={(e) => setName(e.target.value)}
        />
        <Button size="sm" type="submit" disabled={name.trim() === '' || name === location.name}>
          Rename
        </Button>
        {!location.builtIn && (
          <Button
            size="sm"
            variant="danger"
            onClick={() => onPending({ kind: 'delete', location })}
          >
            Delete location
          </Button>
        )}
      </form>
      {!location.builtIn && (
        <>
          {location.probes.length > 0 && (
            <div className="dtable-wrap section-gap">
              <table className="dtable">
                <caption className="visually-hidden">Probes of {location.name}</caption>
                <thead>
                  <tr>
                    <th scope="col">Probe</th>
                    <th scope="col">State</th>
                    <th scope="col">Version</th>
                    <th scope="col">Last heartbeat</th>
                    <th scope="col">Clock offset</th>
                    <th scope="col">Load</th>
                    <th scope="col">Lateness p99</th>
                    <th scope="col">Spool</th>
                    <th scope="col">
                      <span className="visually-hidden">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {location.probes.map((p) => (
                    <ProbeRow
                      key={p.id}
                      probe={p}
                      onRotate={() => actions.rotate.mutate(p.id, { onSuccess: onCreated })}
                      onRevoke={() => onPending({ kind: 'revoke', probeId: p.id, name: p.name })}
                    />
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <form className="loc-form section-gap" onSubmit={addProbe}>
            <label htmlFor={`probe-${location.id}`}>New probe</label>
            <input
              id={`probe-${location.id}`}
              className="input"
              placeholder="e.g. fra-1"
              value={probeName}
              maxLength={60}
              onChange={(e) => setProbeName(e.target.value)}
            />
            <Button size="sm" type="submit" variant="primary" disabled={probeName.trim() === ''}>
              Add probe
            </Button>
          </form>
        </>
      )}
    </section>
  );
}

/** Settings → Locations: pools of remote probes, their health and their tokens (ADR 56). */
export function LocationsScreen() {
  const { data, error, isPending } = useQuery(locationsQuery());
  const actions = useLocationActions();
  const [created, setCreated] = useState<ProbeTokenCreated | null>(null);
  const [pending, setPending] = useState<Pending | null>(null);
  const [name, setName] = useState('');
  const [region, setRegion] = useState('');
  const add = (e: FormEvent) => {
    e.preventDefault();
    actions.add.mutate(
      { name, region: region || null },
      { onSuccess: () => (setName(''), setRegion('')) },
    );
  };
  const confirm = () => {
    if (!pending) return;
    const close = { onSuccess: () => setPending(null) };
    if (pending.kind === 'delete') actions.remove.mutate(pending.location.id, close);
    else actions.revoke.mutate(pending.probeId, close);
  };
  const failed =
    actions.add.error ?? actions.rename.error ?? actions.addProbe.error ?? actions.rotate.error;
  return (
    <>
      <div className="settings-head">
        <div>
          <h2 className="settings-title">Locations</h2>
          <p className="page-sub">
            Where checks run from. The local location is this server; every other is a pool of
            probes started with <code>npx pagewatch probe</code>.
          </p>
        </div>
      </div>
      {created && <TokenShownOnce created={created} onDone={() => setCreated(null)} />}
      {failed && <ErrorNotice error={failed} className="section-gap" />}
      <form className="loc-form section-gap" onSubmit={add} aria-label="Add location">
        <label htmlFor="location-name">Name</label>
        <input
          id="location-name"
          className="input"
          value={name}
          maxLength={60}
          onChange={(e) => setName(e.target.value)}
        />
        <label htmlFor="location-region">Region</label>
        <input
          id="location-region"
          className="input"
          placeholder="optional"
          value={region}
          maxLength={60}
          onChange={(e) => setRegion(e.target.value)}
        />
        <Button
          type="submit"
          variant="primary"
          disabled={name.trim() === ''}
          busy={actions.add.isPending}
        >
          Add location
        </Button>
      </form>
      {isPending && <LoadingBlock label="Loading locations…" rows={3} />}
      {error && !data && <ErrorNotice error={error} />}
      {data?.map((l) => (
        <LocationCard
          key={l.id}
          location={l}
          actions={actions}
          onCreated={setCreated}
          onPending={setPending}
        />
      ))}
      <ConfirmDialog
        open={pending !== null}
        title={
          pending?.kind === 'delete'
            ? `Delete location ${pending.location.name}?`
            : `Revoke probe ${pending?.kind === 'revoke' ? pending.name : ''}?`
        }
        confirmLabel={pending?.kind === 'delete' ? 'Delete location' : 'Revoke probe'}
        tone="danger"
        busy={actions.remove.isPending || actions.revoke.isPending}
        onConfirm={confirm}
        onCancel={() => setPending(null)}
      >
        {pending?.kind === 'delete'
          ? 'Its probes and tokens stop working at once; its monitors are checked by their other locations.'
          : 'Its tokens stop working and its connection is closed within seconds.'}
      </ConfirmDialog>
    </>
  );
}
