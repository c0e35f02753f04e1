import type { AssertionKind } from '@pagewatch/contract';
import { Button } from '../../../../components/ui/Button';
import { Field } from '../../../../components/ui/Field';
import { Icon } from '../../../../components/ui/Icon';
import { assertionKinds, newAssertionRow, type AssertionRow } from './assertion-rows';

interface AssertionsEditorProps {
  rows: AssertionRow[];
  errorFor: (key: string) => string | undefined;
  onChange: (rows: AssertionRow[], changedKey: string) => void;
}

const MAX = 20;

interface RowProps {
  row: AssertionRow;
  errorFor: (key: string) => string | undefined;
  update: (patch: Partial<AssertionRow>, field: string) => void;
}

const inputProps = { className: 'input mono', autoComplete: 'off', spellCheck: false } as const;

function ModeSelect({ row, errorFor, update }: RowProps) {
  const name = `assertions.${row.key}.mode`;
  return (
    <Field name={name} label="Passes when the body" error={errorFor(name)}>
      {(p) => (
        <select
          {...p}
          className="input select"
          value={row.mode}
          onChange={(e) => update({ mode: e.target.value as 'present' | 'absent' }, 'mode')}
        >
          <option value="present">{row.kind === 'regex' ? 'matches' : 'contains it'}</option>
          <option value="absent">
            {row.kind === 'regex' ? 'does not match' : 'does not contain it'}
          </option>
        </select>
      )}
    </Field>
  );
}

/** The inputs of one assertion kind. */
function KindFields(props: RowProps) {
  const { row, errorFor, update } = props;
  const at = (field: string) => `assertions.${row.key}.${field}`;
  switch (row.kind) {
    case 'keyword':
      return (
        <>
          <Field name={at('value')} label="Text" error={errorFor(at('value'))}>
            {(p) => (
              <input
                {...p}
                {...inputProps}
                value={row.value}
                onChange={(e) => update({ value: e.target.value }, 'value')}
              />
            )}
          </Field>
          <ModeSelect {...props} />
          <Field name={at('caseSensitive')} label="Match case" inline>
            {(p) => (
              <input
                {...p}
                type="checkbox"
                checked={row.caseSensitive}
                onChange={(e) => update({ caseSensitive: e.target.checked }, 'caseSensitive')}
              />
            )}
          </Field>
        </>
      );
    case 'regex':
      return (
        <>
          <Field
            name={at('pattern')}
            label="Pattern"
            error={errorFor(at('pattern'))}
            hint="Without slashes, e.g. version \d+\.\d+"
          >
            {(p) => (
              <input
                {...p}
                {...inputProps}
                value={row.pattern}
                onChange={(e) => update({ pattern: e.target.value }, 'pattern')}
              />
            )}
          </Field>
          <Field
            name={at('flags')}
            label="Flags"
            optional
            error={errorFor(at('flags'))}
            hint="i ignores case, m and s change ^ $ and ."
          >
            {(p) => (
              <input
                {...p}
                {...inputProps}
                value={row.flags}
                onChange={(e) => update({ flags: e.target.value }, 'flags')}
              />
            )}
          </Field>
          <ModeSelect {...props} />
        </>
      );
    case 'json':
      return (
        <>
          <Field
            name={at('path')}
            label="JSON path"
            error={errorFor(at('path'))}
            hint="e.g. $.status or $.items[0].id"
          >
            {(p) => (
              <input
                {...p}
                {...inputProps}
                value={row.path}
                onChange={(e) => update({ path: e.target.value }, 'path')}
              />
            )}
          </Field>
          <Field name={at('op')} label="Check" error={errorFor(at('op'))}>
            {(p) => (
              <select
                {...p}
                className="input select"
                value={row.jsonOp}
                onChange={(e) => update({ jsonOp: e.target.value as AssertionRow['jsonOp'] }, 'op')}
              >
                <option value="equals">equals</option>
                <option value="contains">contains</option>
                <option value="exists">exists</option>
                <option value="not_exists">does not exist</option>
              </select>
            )}
          </Field>
          {(row.jsonOp === 'equals' || row.jsonOp === 'contains') && (
            <Field
              name={at('value')}
              label="Value"
              error={errorFor(at('value'))}
              hint='JSON such as true, 42 or "ok"; other text is compared as a string'
            >
              {(p) => (
                <input
                  {...p}
                  {...inputProps}
                  value={row.value}
                  onChange={(e) => update({ value: e.target.value }, 'value')}
                />
              )}
            </Field>
          )}
        </>
      );
    case 'header':
      return (
        <>
          <Field name={at('name')} label="Header" error={errorFor(at('name'))}>
            {(p) => (
              <input
                {...p}
                {...inputProps}
                placeholder="Content-Type"
                value={row.name}
                onChange={(e) => update({ name: e.target.value }, 'name')}
              />
            )}
          </Field>
          <Field name={at('op')} label="Check" error={errorFor(at('op'))}>
            {(p) => (
              <select
                {...p}
                className="input select"
                value={row.headerOp}
                onChange={(e) =>
                  update({ headerOp: e.target.value as AssertionRow['headerOp'] }, 'op')
                }
              >
                <option value="equals">equals</option>
                <option value="contains">contains (any case)</option>
                <option value="matches">matches a regular expression</option>
                <option value="exists">is present</option>
              </select>
            )}
          </Field>
          {row.headerOp !== 'exists' && (
            <Field name={at('value')} label="Value" error={errorFor(at('value'))}>
              {(p) => (
                <input
                  {...p}
                  {...inputProps}
                  value={row.value}
                  onChange={(e) => update({ value: e.target.value }, 'value')}
                />
              )}
            </Field>
          )}
        </>
      );
    case 'latency':
      return (
        <Field name={at('maxMs')} label="At most (ms)" error={errorFor(at('maxMs'))}>
          {(p) => (
            <input
              {...p}
              className="input"
              inputMode="numeric"
              value={row.maxMs}
              onChange={(e) => update({ maxMs: e.target.value }, 'maxMs')}
            />
          )}
        </Field>
      );
    case 'size':
      return (
        <>
          <Field name={at('op')} label="The body is" error={errorFor(at('op'))}>
            {(p) => (
              <select
                {...p}
                className="input select"
                value={row.sizeOp}
                onChange={(e) => update({ sizeOp: e.target.value as AssertionRow['sizeOp'] }, 'op')}
              >
                <option value="at_most">at most</option>
                <option value="at_least">at least</option>
              </select>
            )}
          </Field>
          <Field name={at('bytes')} label="Bytes" error={errorFor(at('bytes'))}>
            {(p) => (
              <input
                {...p}
                className="input"
                inputMode="numeric"
                value={row.bytes}
                onChange={(e) => update({ bytes: e.target.value }, 'bytes')}
              />
            )}
          </Field>
        </>
      );
  }
}

/** Add, remove and reorder assertions; each row shows its kind's fields and help. */
export function AssertionsEditor({ rows, errorFor, onChange }: AssertionsEditorProps) {
  const listError = errorFor('assertions');
  const move = (index: number, by: -1 | 1) => {
    const next = [...rows];
    const [row] = next.splice(index, 1);
    if (row === undefined) return;
    next.splice(index + by, 0, row);
    onChange(next, 'assertions');
  };
  return (
    <fieldset className="field assertions" data-field="assertions">
      <legend className="field__label">
        Assertions <span className="field__optional">(optional)</span>
      </legend>
      <p className="field__hint">
        Checked in order after the status code. A failed assertion takes the monitor down; a soft
        one only marks it degraded.
      </p>
      {rows.length > 0 && (
        <ol className="assertions__list">
          {rows.map((row, i) => {
            const kindName = `assertions.${row.key}.kind`;
            const help = assertionKinds.find((k) => k.value === row.kind)?.help;
            const update = (patch: Partial<AssertionRow>, field: string) =>
              onChange(
                rows.map((r) => (r.key === row.key ? { ...r, ...patch } : r)),
                `assertions.${row.key}.${field}`,
              );
            return (
              <li key={row.key} className="assertions__row">
                <div className="assertions__head">
                  <span className="assertions__index" aria-hidden="true">
                    {i + 1}
                  </span>
                  <Field
                    name={kindName}
                    label={`Assertion ${i + 1}`}
                    error={errorFor(kindName)}
                    hint={help}
                  >
                    {(p) => (
                      <select
                        {...p}
                        className="input select"
                        value={row.kind}
                        onChange={(e) => {
                          const kind = e.target.value as AssertionKind;
                          update({ kind, soft: kind === 'latency' ? true : row.soft }, 'kind');
                        }}
                      >
                        {assertionKinds.map((k) => (
                          <option key={k.value} value={k.value}>
                            {k.label}
                          </option>
                        ))}
                      </select>
                    )}
                  </Field>
                  <div className="assertions__tools">
                    <Button
                      variant="ghost"
                      size="sm"
                      className="btn--icon"
                      aria-label={`Move assertion ${i + 1} up`}
                      disabled={i === 0}
                      onClick={() => move(i, -1)}
                    >
                      <Icon name="chevronUp" />
                    </Button>
                    <Button
                      variant="ghost"
                      size="sm"
                      className="btn--icon"
                      aria-label={`Move assertion ${i + 1} down`}
                      disabled={i === rows.length - 1}
                      onClick={() => move(i, 1)}
                    >
                      <Icon name="chevronDown" />
                    </Button>
                    <Button
                      variant="ghost"
                      size="sm"
                      className="btn--icon"
                      aria-label={`Remove assertion ${i + 1}`}
                      onClick={() =>
                        onChange(
                          rows.filter((r) => r.key !== row.key),
                          'assertions',
                        )
                      }
                    >
                      <Icon name="x" />
                    </Button>
                  </div>
                </div>
                <div className="form__grid assertions__fields">
                  <KindFields row={row} errorFor={errorFor} update={update} />
                </div>
                <Field
                  className="assertions__soft"
                  name={`assertions.${row.key}.soft`}
                  label="Soft: degrade instead of down"
                  inline
                >
                  {(p) => (
                    <input
                      {...p}
                      type="checkbox"
                      checked={row.soft}
                      onChange={(e) => update({ soft: e.target.checked }, 'soft')}
                    />
                  )}
                </Field>
              </li>
            );
          })}
        </ol>
      )}
      {listError && (
        <p className="field__error">
          <Icon name="alertCircle" size={14} />
          {listError}
        </p>
      )}
      <div>
        <Button
          size="sm"
          icon="plus"
          disabled={rows.length >= MAX}
          onClick={() => onChange([...rows, newAssertionRow()], 'assertions')}
        >
          Add assertion
        </Button>
      </div>
    </fieldset>
  );
}
