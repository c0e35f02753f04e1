import type { Slo, SloInput, SloSubject, SloWindow } from '@pagewatch/contract';
import { sloWindows } from '@pagewatch/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '../../../components/ui/Button';
import { Field } from '../../../components/ui/Field';
import { ErrorNotice } from '../../../components/ui/Notice';
import { TimeZonePicker } from '../../../components/ui/TimeZonePicker';
import { displayTimeZone } from '../../../lib/format';
import { monitorNamesQuery } from '../../monitors/api/queries';
import {
  CheckboxField,
  SelectField,
  TextInputField,
} from '../../monitors/components/form/controls';
import { statusPageListQuery } from '../../status-pages/api/status-pages';
import { useSaveSlo } from '../api/slos';
import { windowLabels } from '../describe';

type Kind = SloSubject['kind'];
const kindOptions = [
  { value: 'monitor', label: 'A monitor (or group)' },
  { value: 'tag', label: 'Every monitor with a tag' },
  { value: 'component', label: 'A status page component' },
] as const satisfies readonly { value: Kind; label: string }[];

/** Create or change an SLO: what it is about, the promise, and what counts against it. */
export function SloForm({
  slo,
  onDone,
  monitorId = null,
}: {
  slo: Slo | null;
  onDone: (saved: Slo | null) => void;
  monitorId?: number | null;
}) {
  const monitors = useQuery(monitorNamesQuery());
  const pages = useQuery(statusPageListQuery());
  const save = useSaveSlo(slo?.id ?? null);
  const s = slo?.subject;
  const [name, setName] = useState(slo?.name ?? '');
  const [kind, setKind] = useState<Kind>(s?.kind ?? 'monitor');
  const [monitor, setMonitor] = useState(
    String(s && s.kind !== 'tag' ? s.monitorId : (monitorId ?? '')),
  );
  const [tag, setTag] = useState(s?.kind === 'tag' ? s.tag : '');
  const [page, setPage] = useState(s?.kind === 'component' ? String(s.statusPageId) : '');
  const [target, setTarget] = useState(String(slo?.target ?? 99.9));
  const [window, setWindow] = useState<SloWindow>(slo?.window ?? 'month');
  const [zone, setZone] = useState(slo?.timeZone ?? displayTimeZone());
  const [countDegraded, setCountDegraded] = useState(slo?.countDegraded ?? false);
  const [excludeMaintenance, setExcludeMaintenance] = useState(slo?.excludeMaintenance ?? true);
  const [latencyOn, setLatencyOn] = useState(slo?.latency != null);
  const [percent, setPercent] = useState(String(slo?.latency?.percent ?? 95));
  const [threshold, setThreshold] = useState(String(slo?.latency?.thresholdMs ?? 500));
  const [alerts, setAlerts] = useState(slo?.alerts ?? true);

  const monitorOptions = [
    { value: '', label: 'Choose a monitor…' },
    ...(monitors.data?.items ?? []).map((m) => ({ value: String(m.id), label: m.name })),
  ];
  const pageOptions = [
    { value: '', label: 'Choose a status page…' },
    ...(pages.data?.items ?? []).map((p) => ({ value: String(p.id), label: p.title })),
  ];
  const subject = (): SloSubject =>
    kind === 'tag'
      ? { kind, tag: tag.trim() }
      : kind === 'component'
        ? { kind, statusPageId: Number(page), monitorId: Number(monitor) }
        : { kind, monitorId: Number(monitor) };
  const calendar = window === 'month' || window === 'quarter';

  return (
    <form
      className="panel section-gap slo-form"
      aria-label={slo ? `Edit SLO ${slo.name}` : 'New SLO'}
      onSubmit={(e) => {
        e.preventDefault();
        const input: SloInput = {
          name,
          subject: subject(),
          target: Number(target),
          window,
          timeZone: zone,
          countDegraded,
          excludeMaintenance,
          latency: latencyOn ? { percent: Number(percent), thresholdMs: Number(threshold) } : null,
          alerts,
        };
        save.mutate(input, { onSuccess: (saved) => onDone(saved) });
      }}
    >
      <h2 className="panel__title">{slo ? `Edit “${slo.name}”` : 'New SLO'}</h2>
      <div className="form__grid">
        <TextInputField
          name="name"
          label="Name"
          hint="What the promise is called in alerts and reports, e.g. Checkout availability."
          kind="text"
          input={{ value: name, onChange: (e) => setName(e.target.value), required: true }}
        />
        <SelectField
          name="subjectKind"
          label="About"
          value={kind}
          options={kindOptions}
          onChange={setKind}
        />
        {kind === 'component' && (
          <SelectField
            name="statusPageId"
            label="Status page"
            value={page}
            options={pageOptions}
            onChange={setPage}
          />
        )}
        {kind !== 'tag' ? (
          <SelectField
            name="monitorId"
            label="Monitor"
            value={monitor}
            options={monitorOptions}
            onChange={setMonitor}
          />
        ) : (
          <TextInputField
            name="tag"
            label="Tag"
            hint="Monitors carrying the tag now and later count together."
            kind="text"
            input={{ value: tag, onChange: (e) => setTag(e.target.value) }}
          />
        )}
        <TextInputField
          name="target"
          label="Target (%)"
          hint="Share of checks that must succeed, e.g. 99.9 allows 43 minutes a month."
          kind="number"
          input={{
            value: target,
            onChange: (e) => setTarget(e.target.value),
            inputMode: 'decimal',
          }}
        />
        <SelectField
          name="window"
          label="Window"
          value={window}
          options={sloWindows.map((w) => ({ value: w, label: windowLabels[w] }))}
          onChange={setWindow}
        />
        {calendar && (
          <Field
            name="timeZone"
            label="Time zone"
            hint="Months and quarters start at midnight here."
          >
            {(p) => <TimeZonePicker {...p} value={zone} onChange={setZone} />}
          </Field>
        )}
      </div>
      <fieldset className="slo-form__counts">
        <legend className="field__label">What counts against it</legend>
        <p className="muted">Down checks always do.</p>
        <CheckboxField
          name="countDegraded"
          label="Degraded checks too"
          checked={countDegraded}
          onChange={setCountDegraded}
        />
        <CheckboxField
          name="excludeMaintenance"
          label="Leave out checks during maintenance windows"
          checked={excludeMaintenance}
          onChange={setExcludeMaintenance}
        />
        <CheckboxField
          name="latencyOn"
          label="Also a latency objective"
          checked={latencyOn}
          onChange={setLatencyOn}
        />
        {latencyOn && (
          <div className="form__grid form__grid--narrow">
            <TextInputField
              name="latencyPercent"
              label="Share of checks (%)"
              kind="number"
              input={{
                value: percent,
                onChange: (e) => setPercent(e.target.value),
                inputMode: 'decimal',
              }}
            />
            <TextInputField
              name="latencyThreshold"
              label="Faster than (ms)"
              kind="number"
              input={{ value: threshold, onChange: (e) => setThreshold(e.target.value) }}
            />
          </div>
        )}
        <CheckboxField
          name="alerts"
          label="Burn-rate alerts to the monitors' channels"
          hint="Pages when 2 % of the budget goes in an hour or 5 % in six; a low-severity alert for 10 % in three days."
          checked={alerts}
          onChange={setAlerts}
        />
      </fieldset>
      {save.error ? <ErrorNotice error={save.error} className="section-gap" /> : null}
      <div className="actions__buttons section-gap">
        <Button type="submit" variant="primary" busy={save.isPending}>
          Save SLO
        </Button>
        <Button variant="ghost" onClick={() => onDone(null)}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
