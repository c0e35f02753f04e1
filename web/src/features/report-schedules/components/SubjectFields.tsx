import type { ReportSubjectKind } from '@pagewatch/contract';
import { useQuery } from '@tanstack/react-query';
import { monitorNamesQuery } from '../../monitors/api/queries';
import { SelectField, TextInputField } from '../../monitors/components/form/controls';
import { statusPageListQuery } from '../../status-pages/api/status-pages';

const kindOptions = [
  { value: 'monitor', label: 'A monitor' },
  { value: 'tag', label: 'Every monitor with a tag' },
  { value: 'status_page', label: 'A status page' },
] as const satisfies readonly { value: ReportSubjectKind; label: string }[];

/** What a report is about, as the reports API takes it: a kind and an id (or a tag). */
export function SubjectFields({
  prefix,
  kind,
  id,
  onKind,
  onId,
}: {
  prefix: string;
  kind: ReportSubjectKind;
  id: string;
  onKind: (k: ReportSubjectKind) => void;
  onId: (id: string) => void;
}) {
  const monitors = useQuery(monitorNamesQuery());
  const pages = useQuery(statusPageListQuery());
  return (
    <>
      <SelectField
        name={`${prefix}Kind`}
        label="About"
        value={kind}
        options={kindOptions}
        onChange={(k) => {
          onKind(k);
          onId('');
        }}
      />
      {kind === 'tag' ? (
        <TextInputField
          name={`${prefix}Tag`}
          label="Tag"
          kind="text"
          input={{ value: id, onChange: (e) => onId(e.target.value), required: true }}
        />
      ) : (
        <SelectField
          name={`${prefix}Id`}
          label={kind === 'monitor' ? 'Monitor' : 'Status page'}
          value={id}
          options={[
            { value: '', label: kind === 'monitor' ? 'Choose a monitor…' : 'Choose a page…' },
            ...(kind === 'monitor'
              ? (monitors.data?.items ?? []).map((m) => ({ value: String(m.id), label: m.name }))
              : (pages.data?.items ?? []).map((p) => ({ value: String(p.id), label: p.title }))),
          ]}
          onChange={onId}
        />
      )}
    </>
  );
}
