import type { LinkProblem } from '@pagewatch/contract';
import { ButtonLink } from '../../../../components/ui/Button';
import { Notice } from '../../../../components/ui/Notice';

const titles: Record<LinkProblem, string> = {
  invalid: 'This link does not work',
  expired: 'This link has expired',
  used: 'This link was already used',
};

const why: Record<LinkProblem, string> = {
  invalid: 'It may have been cut short when copied, or replaced by a newer link.',
  expired: 'Links work for a limited time.',
  used: 'Each link works once.',
};

/** Why a reset, invitation or email link no longer works, and where to go instead. */
export function LinkProblemNotice({
  problem,
  then,
  next,
}: {
  problem: LinkProblem;
  /** What to do now, e.g. "Ask for a new link." */
  then: string;
  next: { to: string; label: string };
}) {
  return (
    <div className="auth-form">
      <Notice tone="danger" live title={titles[problem]}>
        {why[problem]} {then}
      </Notice>
      <ButtonLink variant="primary" className="auth-submit" to={next.to}>
        {next.label}
      </ButtonLink>
    </div>
  );
}
