import { SelectField, TextInputField } from './controls';
import type { SectionProps } from './section-props';
import { DegradedField } from './sections-general';

const families = [
  { value: 'auto', label: 'Automatic' },
  { value: 'ipv4', label: 'IPv4 only' },
  { value: 'ipv6', label: 'IPv6 only' },
] as const;

export function PingTargetFields({ v, set, errorFor, text }: SectionProps) {
  return (
    <div className="form__row form__row--hostport">
      <TextInputField
        name="host"
        label="Host"
        error={errorFor('host')}
        hint="A host name or IP address, e.g. router.lan, 10.0.0.1 or 2001:db8::1"
        kind="host"
        input={text('host')}
      />
      <SelectField
        name="ipFamily"
        label="Address family"
        error={errorFor('ipFamily')}
        hint="Which address of a name to ping."
        value={v.ipFamily}
        options={families}
        onChange={(f) => set('ipFamily', f)}
      />
    </div>
  );
}

export function PingPacketsSection(props: SectionProps) {
  const { errorFor, text } = props;
  return (
    <fieldset className="form__section">
      <legend className="form__legend">Packets</legend>
      <p className="form__note">
        Sends ICMP echo requests through the system <code>ping</code>. Down when none is answered
        within the timeout; degraded when more are lost than allowed or the average round trip is
        above the threshold. The monitor page shows loss, min/avg/max and jitter.
      </p>
      <div className="form__grid">
        <TextInputField
          name="count"
          label="Echo requests"
          error={errorFor('count')}
          hint="1 to 20 per check; 3 by default."
          kind="number"
          input={text('count')}
        />
        <TextInputField
          name="packetIntervalMs"
          label="Between requests (ms)"
          error={errorFor('packetIntervalMs')}
          hint="200 to 10,000; all must go out within the timeout."
          kind="number"
          input={text('packetIntervalMs')}
        />
        <TextInputField
          name="lossDegradedPercent"
          label="Loss allowed (%)"
          error={errorFor('lossDegradedPercent')}
          hint="More loss than this degrades; 0: any loss degrades."
          kind="number"
          input={text('lossDegradedPercent')}
        />
        <DegradedField {...props} hint="An average round trip above this counts as degraded." />
      </div>
    </fieldset>
  );
}
