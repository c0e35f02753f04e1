import type { InvitationSent } from '@pagewatch/contract';
import { CopyButton } from '../../../../components/ui/CopyButton';
import { Notice } from '../../../../components/ui/Notice';

/** After an invitation is sent: whether it was mailed, and its link to share by hand (shown once). */
export function InvitationSentNotice({ sent }: { sent: InvitationSent }) {
  const { email } = sent.invitation;
  return (
    <Notice
      tone={sent.mailed ? 'info' : 'warning'}
      live
      className="section-gap"
      title={sent.mailed ? `Invitation mailed to ${email}` : `Invitation to ${email} not mailed`}
    >
      <p>
        {sent.mailed
          ? 'You can also share the link yourself; it is shown only now.'
          : `${sent.mailError ?? 'It could not be mailed'}. Share this link with them yourself; it is shown only now.`}
      </p>
      <p className="invite-link">
        <code data-testid="invitation-link">{sent.link}</code>
        <CopyButton text={sent.link} label="Copy link" size="sm" />
      </p>
    </Notice>
  );
}
