import { isHarmlessHeader } from '@pagewatch/contract';
import { Button } from '../../../../components/ui/Button';
import { Icon } from '../../../../components/ui/Icon';
import { namesStored, newHeaderRow, type HeaderRow } from './form-values';

interface HeadersEditorProps {
  rows: HeaderRow[];
  errorFor: (key: string) => string | undefined;
  onChange: (rows: HeaderRow[], changedKey: string) => void;
  /** What the rows are called here: request headers, or a gRPC call's metadata. */
  legend?: string;
  /** One sentence on where they go, before the note on secret values. */
  hint?: string;
}

/** What a row's name change means for its secret box: untouched, the name decides. */
function renamed(row: HeaderRow, name: string): HeaderRow {
  if (row.secretTouched || row.storedAs !== null) return { ...row, name };
  return { ...row, name, secret: !isHarmlessHeader(name) };
}

export function HeadersEditor({
  rows,
  errorFor,
  onChange,
  legend = 'Request headers',
  hint,
}: HeadersEditorProps) {
  const listError = errorFor('headers');
  const replace = (key: number, next: (r: HeaderRow) => HeaderRow, changed: string) =>
    onChange(
      rows.map((r) => (r.key === key ? next(r) : r)),
      `headers.${key}.${changed}`,
    );
  return (
    <fieldset className="field headers" data-field="headers">
      <legend className="field__label">
        {legend} <span className="field__optional">(optional)</span>
      </legend>
      <p className="field__hint headers__hint">
        {hint && `${hint} `}Secret values are stored encrypted and never shown again; untick
        “Secret” for harmless ones such as Accept or User-Agent.
      </p>
      {rows.length > 0 && (
        <ul className="headers__list">
          {rows.map((row, i) => {
            const nameError = errorFor(`headers.${row.key}.name`);
            const valueError = errorFor(`headers.${row.key}.value`);
            const errorId = `header-${row.key}-error`;
            // Unticked, a stored secret is not shown: a plain header needs its value typed.
            const kept = row.secret && namesStored(row);
            return (
              <li key={row.key} className="headers__row">
                <div className="headers__inputs">
                  <input
                    className="input mono headers__name"
                    aria-label={`Header ${i + 1} name`}
                    placeholder="Name, e.g. X-Api-Key"
                    value={row.name}
                    data-field={`headers.${row.key}.name`}
                    aria-invalid={nameError ? true : undefined}
                    aria-describedby={nameError ? errorId : undefined}
                    autoComplete="off"
                    spellCheck={false}
                    onChange={(e) => replace(row.key, (r) => renamed(r, e.target.value), 'name')}
                  />
                  <input
                    className="input mono headers__value"
                    aria-label={`Header ${i + 1} value`}
                    placeholder={kept ? '•••• stored — type to replace' : 'Value'}
                    value={row.value}
                    data-field={`headers.${row.key}.value`}
                    aria-invalid={valueError ? true : undefined}
                    aria-describedby={valueError ? errorId : undefined}
                    // new-password: no browser offers the user's own password here.
                    type={row.secret ? 'password' : 'text'}
                    autoComplete={row.secret ? 'new-password' : 'off'}
                    spellCheck={false}
                    onChange={(e) =>
                      replace(row.key, (r) => ({ ...r, value: e.target.value }), 'value')
                    }
                  />
                  <label className="headers__secret">
                    <input
                      type="checkbox"
                      aria-label={`Header ${i + 1} is secret`}
                      checked={row.secret}
                      data-field={`headers.${row.key}.secret`}
                      onChange={(e) =>
                        replace(
                          row.key,
                          (r) => ({ ...r, secret: e.target.checked, secretTouched: true }),
                          'value',
                        )
                      }
                    />
                    <span aria-hidden="true">Secret</span>
                  </label>
                  <Button
                    variant="ghost"
                    size="sm"
                    className="btn--icon"
                    aria-label={`Remove header ${i + 1}`}
                    onClick={() =>
                      onChange(
                        rows.filter((r) => r.key !== row.key),
                        'headers',
                      )
                    }
                  >
                    <Icon name="x" />
                  </Button>
                </div>
                {(nameError ?? valueError) && (
                  <p id={errorId} className="field__error">
                    <Icon name="alertCircle" size={14} />
                    {[nameError, valueError].filter(Boolean).join(' · ')}
                  </p>
                )}
              </li>
            );
          })}
        </ul>
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
          onClick={() => onChange([...rows, newHeaderRow()], 'headers')}
        >
          Add header
        </Button>
      </div>
    </fieldset>
  );
}
