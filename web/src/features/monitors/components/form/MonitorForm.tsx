import {
  monitorCommonKeys,
  type Monitor,
  type MonitorDraft,
  type MonitorType,
} from '@pagewatch/contract';
import type { UseMutationResult } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import { useParams } from 'react-router';
import { Button, ButtonLink } from '../../../../components/ui/Button';
import { ErrorNotice, Notice } from '../../../../components/ui/Notice';
import { Segmented } from '../../../../components/ui/Segmented';
import { isApiError } from '../../../../lib/api';
import { differs, useLeaveGuard } from '../../../../lib/leave-guard';
import { useTrialCheck } from '../../../notifications/api/coverage';
import { plural } from '../../../../lib/format';
import type { FormValues } from './form-values';
import type { SectionProps, TextKey } from './section-props';
import { BasicsSection, DetailsSection, ScheduleSection } from './sections-general';
import { formKinds, monitorTypes } from './kinds';
import { HttpTargetFields, RequestSection, ResponseSection } from './sections-http';
import { PushScheduleSection, PushTargetNote } from './sections-push';
import { TcpExchangeSection, TcpTargetFields } from './sections-tcp';
import { DnsAnswerSection, DnsTargetFields } from './sections-dns';
import { TlsCertificateSection, TlsTargetFields } from './sections-tls';
import {
  DomainRegistrationSection,
  DomainTargetFields,
  HttpDomainExpirySection,
} from './sections-domain';
import { GroupMembersFields, GroupRuleSection } from './sections-group';
import { BrowserAccessSection, BrowserPageSection, BrowserTargetFields } from './sections-browser';
import { AlertsSection } from './sections-alerts';
import { PingPacketsSection, PingTargetFields } from './sections-ping';
import { UdpExchangeSection, UdpTargetFields } from './sections-udp';
import { WebSocketExchangeSection, WebSocketTargetFields } from './sections-websocket';
import { GrpcHealthSection, GrpcTargetFields } from './sections-grpc';
import { DependenciesSection } from '../../../dependencies/DependenciesSection';
import { useDependencyDraft } from '../../../dependencies/useDependencyDraft';
import { LocationsSection } from '../../../monitor-locations/LocationsSection';
import { useLocationDraft } from '../../../monitor-locations/useLocationDraft';
import { mongodbForm, mysqlForm, postgresForm, redisForm } from './sections-database';
import { amqpForm, imapForm, mqttForm, pop3Form, smtpForm } from './sections-messaging';
import { TrialResult } from './TrialResult';
import { useMonitorForm } from './useMonitorForm';

// Form fields shared by every type; `type` and `paused` are not edited as fields here.
const commonFields: string[] = monitorCommonKeys.filter((k) => k !== 'type' && k !== 'paused');

// The Alerts section's fields, as the contract names them and as typed (not-a-number errors).
const alertFields = [
  'alerts.',
  'channelIds',
  'alertAfterChecks',
  'alertRenotify',
  'alertRenotifyBackoff',
  'alertFlapThreshold',
  'alertFlapWindow',
];

/**
 * Per type: the fields after the name, the schedule (when the common one does not fit), and
 * the sections between the schedule and the details.
 */
const kindSections: {
  [T in MonitorType]: {
    Target: ComponentType<SectionProps>;
    Schedule?: ComponentType<SectionProps>;
    sections: ComponentType<SectionProps>[];
  };
} = {
  http: {
    Target: HttpTargetFields,
    sections: [RequestSection, ResponseSection, HttpDomainExpirySection],
  },
  domain: { Target: DomainTargetFields, sections: [DomainRegistrationSection] },
  group: { Target: GroupMembersFields, sections: [GroupRuleSection] },
  tcp: { Target: TcpTargetFields, sections: [TcpExchangeSection] },
  dns: { Target: DnsTargetFields, sections: [DnsAnswerSection] },
  tls: { Target: TlsTargetFields, sections: [TlsCertificateSection] },
  push: { Target: PushTargetNote, Schedule: PushScheduleSection, sections: [] },
  browser: { Target: BrowserTargetFields, sections: [BrowserPageSection, BrowserAccessSection] },
  ping: { Target: PingTargetFields, sections: [PingPacketsSection] },
  udp: { Target: UdpTargetFields, sections: [UdpExchangeSection] },
  websocket: { Target: WebSocketTargetFields, sections: [WebSocketExchangeSection] },
  grpc: { Target: GrpcTargetFields, sections: [GrpcHealthSection] },
  postgres: postgresForm,
  mysql: mysqlForm,
  redis: redisForm,
  mongodb: mongodbForm,
  mqtt: mqttForm,
  amqp: amqpForm,
  smtp: smtpForm,
  imap: imapForm,
  pop3: pop3Form,
};

const commonSchedule = { interval: '60', timeout: '10' };
const scheduleOf = (t: MonitorType) => formKinds[t].schedule ?? commonSchedule;

const typeOptions = monitorTypes.map((t) => ({ value: t, label: formKinds[t].label }));

interface MonitorFormProps {
  /** `clone` creates, starting from a monitor whose stored secrets the server copies. */
  mode: 'create' | 'edit' | 'clone';
  initial: FormValues;
  mutation: UseMutationResult<Monitor, Error, MonitorDraft>;
  cancelTo: string;
  onSaved: (monitor: Monitor) => void;
}

export function MonitorForm({ mode, initial, mutation, cancelTo, onSaved }: MonitorFormProps) {
  const params = useParams();
  // Parents and grouping are their own resource, saved right after the monitor (ADR 41).
  const dependencies = useDependencyDraft(
    mode === 'edit' ? Number(params.id) : null,
    mode === 'create' ? null : Number(params.id),
  );
  // Locations and k too (ADR 58).
  const locations = useLocationDraft(
    mode === 'edit' ? Number(params.id) : null,
    mode === 'create' ? null : Number(params.id),
  );
  const form = useMonitorForm(initial, mutation, (m) => {
    // A refused edit (a cycle) keeps the form open; a new monitor cannot close a cycle.
    void Promise.all([dependencies.save(m.id), locations.save(m.id)]).then((saved) => {
      if (saved.includes(false) && mode === 'edit') return;
      leave.allowLeave();
      onSaved(m);
    });
  });
  const { values: v, set, errorFor } = form;
  const leave = useLeaveGuard(differs(v, initial));
  // "Test" on an edit uses the stored credentials the form leaves empty.
  const editedId = mode === 'edit' ? Number(params.id) : null;
  const trial = useTrialCheck(editedId);
  const runTest = () => {
    const draft = form.draftForTest();
    if (draft) trial.mutate(draft, { onError: form.showServerErrors });
  };
  const fields = [...commonFields, ...alertFields, ...formKinds[v.type].fields];
  const isKnown = (key: string) =>
    fields.some((f) => (f.endsWith('.') ? key.startsWith(f) : key === f));
  const { Target, Schedule = ScheduleSection, sections } = kindSections[v.type];
  const orphans = Object.entries(form.serverErrors).filter(([key]) => !isKnown(key));
  const fieldErrorCount = Object.keys(form.shownErrors).filter(isKnown).length;
  const otherError =
    mutation.error && !(isApiError(mutation.error) && mutation.error.fieldErrors.length > 0)
      ? mutation.error
      : null;
  const section: SectionProps = {
    v,
    monitorId: mode === 'edit' ? Number(params.id) : null,
    set,
    errorFor,
    text: (key: TextKey) => ({
      value: v[key],
      onChange: (e) => set(key, e.target.value),
    }),
  };

  return (
    <form
      ref={form.formRef}
      className="form"
      noValidate
      onSubmit={form.onSubmit}
      onBlur={form.onBlur}
    >
      {leave.guard}
      <BasicsSection
        {...section}
        typeChoice={
          mode === 'create' && (
            <div className="field field--choice" data-field="type">
              <span className="field__label">Type</span>
              <Segmented
                label="Monitor type"
                value={v.type}
                options={typeOptions}
                onChange={(t) => {
                  set('type', t);
                  // Carry the new type's schedule defaults unless the person changed them.
                  const was = scheduleOf(v.type);
                  const next = scheduleOf(t);
                  if (v.interval === was.interval) set('interval', next.interval);
                  if (v.timeout === was.timeout) set('timeout', next.timeout);
                }}
              />
            </div>
          )
        }
        target={<Target {...section} />}
      />

      <Schedule {...section} />

      {sections.map((Section, i) => (
        <Section key={`${v.type}-${i}`} {...section} />
      ))}

      <AlertsSection {...section} />

      <LocationsSection draft={locations} type={v.type} />

      <DependenciesSection
        draft={dependencies}
        monitorId={mode === 'edit' ? Number(params.id) : null}
      />

      <DetailsSection {...section} />

      {trial.data && !trial.isPending && <TrialResult result={trial.data} />}

      <div className="form__footer">
        {form.submitted && fieldErrorCount > 0 && (
          <p className="form__summary" role="alert">
            Fix {plural(fieldErrorCount, 'field')} marked above to continue.
          </p>
        )}
        {orphans.map(([key, message]) => (
          <Notice key={key} tone="danger" live title="The server did not accept the monitor">
            {key ? `${key}: ${message}` : message}
          </Notice>
        ))}
        {otherError && <ErrorNotice error={otherError} />}
        {trial.error && !(isApiError(trial.error) && trial.error.fieldErrors.length > 0) && (
          <ErrorNotice error={trial.error} />
        )}
        <div className="form__buttons">
          <ButtonLink to={cancelTo} variant="ghost">
            Cancel
          </ButtonLink>
          {v.type !== 'push' && (
            <Button icon="activity" busy={trial.isPending} onClick={runTest}>
              Test
            </Button>
          )}
          <Button type="submit" variant="primary" busy={mutation.isPending}>
            {mode === 'edit' ? 'Save changes' : 'Create monitor'}
          </Button>
        </div>
      </div>
    </form>
  );
}
