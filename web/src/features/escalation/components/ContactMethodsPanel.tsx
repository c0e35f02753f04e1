import '../../../styles/contact-methods.css';
import {
  contactMethodKinds,
  type ContactMethod,
  type ContactMethodKind,
} from '@pagewatch/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '../../../components/ui/Button';
import { ErrorNotice, Notice } from '../../../components/ui/Notice';
import { SelectField, TextInputField } from '../../monitors/components/form/controls';
import {
  myContactMethodsQuery,
  useAddContactMethod,
  useRemoveContactMethod,
  useResendCode,
  useVerifyContactMethod,
} from '../api/contact-methods';
import { contactKinds, toInput } from './contact-kinds';

function VerifyForm({ method }: { method: ContactMethod }) {
  const verify = useVerifyContactMethod();
  const resend = useResendCode();
  const [code, setCode] = useState('');
  const name = method.label || contactKinds[method.kind].label;
  return (
    <form
      className="cm-verify"
      onSubmit={(e) => {
        e.preventDefault();
        verify.mutate({ id: method.id, code: code.trim() });
      }}
    >
      <label className="visually-hidden" htmlFor={`cm-code-${method.id}`}>
        Code for {name}
      </label>
      <input
        id={`cm-code-${method.id}`}
        className="input mono"
        inputMode="numeric"
        autoComplete="one-time-code"
        placeholder="6-digit code"
        maxLength={6}
        value={code}
        onChange={(e) => setCode(e.target.value)}
      />
      <Button type="submit" size="sm" variant="primary" busy={verify.isPending}>
        Verify<span className="visually-hidden"> {name}</span>
      </Button>
      <Button
        size="sm"
        variant="ghost"
        busy={resend.isPending}
        onClick={() => resend.mutate(method.id)}
      >
        Send a new code
      </Button>
      {verify.error ? <ErrorNotice error={verify.error} /> : null}
      {resend.data && !resend.data.codeSent ? (
        <Notice tone="danger" title="The code could not be sent">
          {resend.data.sendError}
        </Notice>
      ) : null}
    </form>
  );
}

function MethodRow({ method }: { method: ContactMethod }) {
  const remove = useRemoveContactMethod();
  const kind = contactKinds[method.kind];
  const name = method.label || kind.label;
  return (
    <li className="cm-row" data-testid="contact-method">
      <div className="cm-row__main">
        <p className="cm-row__name">
          {name}
          <span className={`pill ${method.verifiedAt ? 'pill--on' : 'pill--off'}`}>
            {method.verifiedAt ? 'Verified' : 'Not verified'}
          </span>
        </p>
        <p className="cm-row__meta">
          {kind.label} · {kind.describe(method)}
        </p>
      </div>
      <Button
        size="sm"
        variant="ghost"
        icon="trash"
        busy={remove.isPending}
        onClick={() => remove.mutate(method.id)}
      >
        Remove<span className="visually-hidden"> {name}</span>
      </Button>
      {method.verifiedAt ? null : <VerifyForm method={method} />}
    </li>
  );
}

function AddForm() {
  const add = useAddContactMethod();
  const [kind, setKind] = useState<ContactMethodKind>('webhook');
  const [label, setLabel] = useState('');
  const [values, setValues] = useState<Record<string, string>>({});
  const errorFor = (key: string) =>
    add.error && 'fieldErrors' in add.error
      ? (add.error.fieldErrors as { path: string; message: string }[]).find((e) =>
          e.path.endsWith(key),
        )?.message
      : undefined;
  return (
    <form
      aria-label="Add a contact method"
      onSubmit={(e) => {
        e.preventDefault();
        add.mutate(toInput(kind, label, values), {
          onSuccess: (r) => {
            if (r.codeSent) {
              setValues({});
              setLabel('');
            }
          },
        });
      }}
    >
      <div className="cm-add">
        <SelectField
          name="kind"
          label="Kind"
          value={kind}
          options={contactMethodKinds.map((k) => ({ value: k, label: contactKinds[k].label }))}
          onChange={(k) => {
            setKind(k);
            setValues({});
          }}
        />
        <TextInputField
          name="label"
          label="Label"
          optional
          kind="text"
          input={{ value: label, onChange: (e) => setLabel(e.target.value) }}
        />
        {contactKinds[kind].fields.map((f) => (
          <TextInputField
            key={`${kind}-${f.key}`}
            name={f.key}
            label={f.label}
            hint={f.hint}
            error={errorFor(f.key)}
            kind={f.kind}
            input={{
              value: values[f.key] ?? '',
              onChange: (e) => setValues({ ...values, [f.key]: e.target.value }),
            }}
          />
        ))}
      </div>
      {add.data && !add.data.codeSent ? (
        <Notice tone="danger" title="Saved, but the code could not be sent" className="section-gap">
          {add.data.sendError} Fix the settings (remove and add it again) or send a new code.
        </Notice>
      ) : null}
      {add.error ? <ErrorNotice error={add.error} className="section-gap" /> : null}
      <div className="actions__buttons section-gap">
        <Button type="submit" variant="primary" icon="plus" busy={add.isPending}>
          Add and send a code
        </Button>
      </div>
    </form>
  );
}

/**
 * My account → Contact methods (ADR 60): how escalation steps that name you reach you. Each is
 * used only once the code sent through it has been typed back here.
 */
export function ContactMethodsPanel() {
  const list = useQuery(myContactMethodsQuery());
  const items = list.data?.items ?? [];
  return (
    <section className="panel" aria-labelledby="contact-methods-title">
      <h3 id="contact-methods-title" className="panel__title">
        Contact methods
      </h3>
      <p className="muted">
        Escalation policies that name you, or a schedule you are on call in, reach you here. A
        method is used once you type back the code sent through it.
      </p>
      {list.error ? <ErrorNotice error={list.error} /> : null}
      {items.length > 0 ? (
        <ul className="cm-list" aria-label="Your contact methods">
          {items.map((m) => (
            <MethodRow key={m.id} method={m} />
          ))}
        </ul>
      ) : (
        !list.isPending && <p className="muted">None yet: escalations cannot reach you directly.</p>
      )}
      <AddForm />
    </section>
  );
}
