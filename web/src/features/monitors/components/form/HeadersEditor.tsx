import { Button } from '../../../../components/ui/Button';
import { Icon } from '../../../../components/ui/Icon';
import { newHeaderRow, type HeaderRow } from './form-values';

interface HeadersEditorProps {
  rows: HeaderRow[];
  errorFor: (key: string) => string | undefined;
  onChange: (rows: HeaderRow[], changedKey: string) => void;
}

export function HeadersEditor({ rows, errorFor, onChange }: HeadersEditorProps) {
  const listError = errorFor('headers');
  const update = (key: number, part: 'name' | 'value', text: string) =>
    onChange(
      rows.map((r) => (r.key === key ? { ...r, [part]: text } : r)),
      `headers.${key}.${part}`,
    );
  return (
    <fieldset className="field headers" data-field="headers">
      <legend className="field__label">
        Request headers <span className="field__optional">(optional)</span>
      </legend>
      {rows.length > 0 && (
        <ul className="headers__list">
          {rows.map((row, i) => {
            const nameError = errorFor(`headers.${row.key}.name`);
            const valueError = errorFor(`headers.${row.key}.value`);
            const errorId = `header-${row.key}-error`;
            return (
              <li key={row.key} className="headers__row">
                <div className="headers__inputs">
                  <input
                    className="input mono"
                    aria-label={`Header ${i + 1} name`}
                    placeholder="Name, e.g. Authorization"
                    value={row.name}
                    data-field={`headers.${row.key}.name`}
                    aria-invalid={nameError ? true : undefined}
                    aria-describedby={nameError ? errorId : undefined}
                    autoComplete="off"
                    spellCheck={false}
                    onChange={(e) => update(row.key, 'name', e.target.value)}
                  />
                  <input
                    className="input mono"
                    aria-label={`Header ${i + 1} value`}
                    placeholder="Value"
                    value={row.value}
                    data-field={`headers.${row.key}.value`}
                    aria-invalid={valueError ? true : undefined}
                    aria-describedby={valueError ? errorId : undefined}
                    autoComplete="off"
                    spellCheck={false}
                    onChange={(e) => update(row.key, 'value', e.target.value)}
                  />
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
