import { Button } from '../../../components/ui/Button';
import { CopyButton } from '../../../components/ui/CopyButton';
import { Notice } from '../../../components/ui/Notice';
import { downloadText } from '../../../lib/clipboard';

const asText = (codes: readonly string[], email: string) =>
  [
    `Pagewatch recovery codes for ${email}`,
    `Created ${new Date().toISOString().slice(0, 10)}. Each code signs you in once.`,
    '',
    ...codes,
    '',
  ].join('\n');

/** The ten recovery codes, shown this one time, with ways to keep them. */
export function RecoveryCodes({
  codes,
  email,
  onDone,
}: {
  codes: readonly string[];
  email: string;
  onDone: () => void;
}) {
  const text = asText(codes, email);
  return (
    <div className="recovery">
      <Notice tone="warning" live title="Save your recovery codes now">
        They are shown only this once. If you lose your phone, each code signs you in one time
        instead of a code from the app. Keep them somewhere safe, such as a password manager.
      </Notice>
      <ol className="recovery__codes" aria-label="Recovery codes">
        {codes.map((c) => (
          <li key={c} className="mono">
            {c}
          </li>
        ))}
      </ol>
      <div className="button-row">
        <CopyButton text={codes.join('\n')} label="Copy codes" />
        <Button icon="download" onClick={() => downloadText('pagewatch-recovery-codes.txt', text)}>
          Download .txt
        </Button>
        <Button variant="primary" className="button-row__end" onClick={onDone}>
          I have saved them
        </Button>
      </div>
    </div>
  );
}
