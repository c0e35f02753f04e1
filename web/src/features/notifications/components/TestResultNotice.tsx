import type { ChannelTestResult } from '@pagewatch/contract';
import { Notice } from '../../../components/ui/Notice';

/** What the receiver said to a test message: accepted, or its exact refusal. */
export function TestResultNotice({ name, result }: { name: string; result: ChannelTestResult }) {
  return result.ok ? (
    <Notice live title="Test delivered" className="notice--ok section-gap">
      {name || 'The channel'} accepted the test message in {result.durationMs} ms.
    </Notice>
  ) : (
    <Notice live tone="danger" title="The test was not delivered">
      <code className="test-error">{result.error}</code>
    </Notice>
  );
}
