import { Notice } from '../../../../components/ui/Notice';
import { CheckboxField, HostPortFields, TextInputField } from './controls';
import { HeadersEditor } from './HeadersEditor';
import type { SectionProps } from './section-props';
import { DegradedField } from './sections-general';

export function GrpcTargetFields({ errorFor, text }: SectionProps) {
  return (
    <HostPortFields
      errorFor={errorFor}
      host={text('host')}
      port={text('port')}
      hostHint="A host name or IP address, e.g. orders.internal or 10.0.0.5"
      portHint="1 to 65,535, e.g. 50051"
    />
  );
}

export function GrpcHealthSection(props: SectionProps) {
  const { v, set, errorFor, text } = props;
  return (
    <fieldset className="form__section">
      <legend className="form__legend">Health check</legend>
      <p className="form__note">
        Calls the standard gRPC health service (<code>grpc.health.v1.Health/Check</code>) and
        expects <code>SERVING</code>. The server must register it; most gRPC frameworks ship it.
      </p>
      <TextInputField
        name="service"
        label="Service"
        optional
        error={errorFor('service')}
        hint="The name the server reports health for, e.g. shop.Orders. Empty: the whole server."
        kind="code"
        input={text('grpcService')}
      />
      <CheckboxField
        name="tls"
        label="Use TLS"
        error={errorFor('tls')}
        checked={v.grpcTls}
        onChange={(checked) => set('grpcTls', checked)}
      />
      {v.grpcTls && (
        <CheckboxField
          name="ignoreTls"
          label="Ignore TLS errors (self-signed, expired or misnamed certificates)"
          error={errorFor('ignoreTls')}
          checked={v.ignoreTls}
          onChange={(checked) => set('ignoreTls', checked)}
        />
      )}
      {v.grpcTls && v.ignoreTls && (
        <Notice tone="warning" title="The certificate will not be verified">
          Its expiry is still shown and warned about 14 days ahead.
        </Notice>
      )}
      <HeadersEditor
        rows={v.headers}
        errorFor={errorFor}
        onChange={(rows, key) => set('headers', rows, key)}
        legend="Metadata"
        hint="Sent with the call, e.g. authorization: Bearer …; names are sent in lower case."
      />
      <div className="form__grid">
        <DegradedField {...props} hint="Answers slower than this count as degraded." />
      </div>
    </fieldset>
  );
}
