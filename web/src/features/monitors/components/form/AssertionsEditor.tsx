import { Button } from '../../../../components/ui/Button';
import { Icon } from '../../../../components/ui/Icon';
import { CheckboxField, SelectField, TextInputField } from './controls';
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

const jsonOps: readonly { value: AssertionRow['jsonOp']; label: string }[] = [
  { value: 'equals', label: 'equals' },
  { value: 'contains', label: 'contains' },
  { value: 'exists', label: 'exists' },
  { value: 'not_exists', label: 'does not exist' },
];

const headerOps: readonly { value: AssertionRow['headerOp']; label: string }[] = [
  { value: 'equals', label: 'equals' },
  { value: 'contains', label: 'contains (any case)' },
  { value: 'matches', label: 'matches a regular expression' },
  { value: 'exists', label: 'is present' },
];

const sizeOps: readonly { value: AssertionRow['sizeOp']; label: string }[] = [
  { value: 'at_most', label: 'at most' },
  { value: 'at_least', label: 'at least' },
];

/** The row's fields typed as text. */
type RowTextKey = {
  [K in keyof AssertionRow]: AssertionRow[K] extends string ? K : never;
}[keyof AssertionRow];

function ModeSelect({ row, errorFor, update }: RowProps) {
  const name = `assertions.${row.key}.mode`;
  const regex = row.kind === 'regex';
  return (
    <SelectField
      name={name}
      label="Passes when the body"
      error={errorFor(name)}
      value={row.mode}
      options={[
        { value: 'present', label: regex ? 'matches' : 'contains it' },
        { value: 'absent', label: regex ? 'does not match' : 'does not contain it' },
      ]}
      onChange={(mode) => update({ mode }, 'mode')}
    />
  );
}

/** The inputs of one assertion kind. */
function KindFields(props: RowProps) {
  const { row, errorFor, update } = props;
  const at = (field: string) => `assertions.${row.key}.${field}`;
  // The error key of a text input is the row field it edits.
  const bind = (field: RowTextKey) => ({
    name: at(field),
    error: errorFor(at(field)),
    input: {
      value: row[field],
      onChange: (e: { target: { value: string } }) => update({ [field]: e.target.value }, field),
    },
  });
  const op = { name: at('op'), error: errorFor(at('op')) };
  switch (row.kind) {
    case 'keyword':
      return (
        <>
          <TextInputField label="Text" kind="code" {...bind('value')} />
          <ModeSelect {...props} />
          <CheckboxField
            name={at('caseSensitive')}
            label="Match case"
            checked={row.caseSensitive}
            onChange={(caseSensitive) => update({ caseSensitive }, 'caseSensitive')}
          />
        </>
      );
    case 'regex':
      return (
        <>
          <TextInputField
            label="Pattern"
            hint="Without slashes, e.g. version \d+\.\d+"
            kind="code"
            {...bind('pattern')}
          />
          <TextInputField
            label="Flags"
            optional
            hint="i ignores case, m and s change ^ $ and ."
            kind="code"
            {...bind('flags')}
          />
          <ModeSelect {...props} />
        </>
      );
    case 'json':
      return (
        <>
          <TextInputField
            label="JSON path"
            hint="e.g. $.status or $.items[0].id"
            kind="code"
            {...bind('path')}
          />
          <SelectField
            {...op}
            label="Check"
            value={row.jsonOp}
            options={jsonOps}
            onChange={(jsonOp) => update({ jsonOp }, 'op')}
          />
          {(row.jsonOp === 'equals' || row.jsonOp === 'contains') && (
            <TextInputField
              label="Value"
              hint='JSON such as true, 42 or "ok"; other text is compared as a string'
              kind="code"
              {...bind('value')}
            />
          )}
        </>
      );
    case 'header': {
      const name = bind('name');
      return (
        <>
          <TextInputField
            label="Header"
            kind="code"
            {...name}
            input={{ placeholder: 'Content-Type', ...name.input }}
          />
          <SelectField
            {...op}
            label="Check"
            value={row.headerOp}
            options={headerOps}
            onChange={(headerOp) => update({ headerOp }, 'op')}
          />
          {row.headerOp !== 'exists' && (
            <TextInputField label="Value" kind="code" {...bind('value')} />
          )}
        </>
      );
    }
    case 'latency':
      return <TextInputField label="At most (ms)" kind="number" {...bind('maxMs')} />;
    case 'size':
      return (
        <>
          <SelectField
            {...op}
            label="The body is"
            value={row.sizeOp}
            options={sizeOps}
            onChange={(sizeOp) => update({ sizeOp }, 'op')}
          />
          <TextInputField label="Bytes" kind="number" {...bind('bytes')} />
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
                  <SelectField
                    name={kindName}
                    label={`Assertion ${i + 1}`}
                    error={errorFor(kindName)}
                    hint={help}
                    value={row.kind}
                    options={assertionKinds}
                    onChange={(kind) =>
                      update({ kind, soft: kind === 'latency' ? true : row.soft }, 'kind')
                    }
                  />
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
                <CheckboxField
                  className="assertions__soft"
                  name={`assertions.${row.key}.soft`}
                  label="Soft: degrade instead of down"
                  checked={row.soft}
                  onChange={(soft) => update({ soft }, 'soft')}
                />
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
