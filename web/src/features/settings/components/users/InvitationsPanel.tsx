import type { Invitation, InvitationSent } from '@pagewatch/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '../../../../components/ui/Button';
import { ConfirmDialog } from '../../../../components/ui/ConfirmDialog';
import { ErrorNotice } from '../../../../components/ui/Notice';
import { RelativeTime } from '../../../../components/ui/RelativeTime';
import { roleLabel } from '../../../auth/roles';
import { invitationsQuery, useResendInvitation, useRevokeInvitation } from '../../api/invitations';

/** Invitations not yet accepted: resend (a new link, 7 more days) or revoke. */
export function InvitationsPanel({ onSent }: { onSent: (sent: InvitationSent) => void }) {
  const { data, error } = useQuery(invitationsQuery());
  const resend = useResendInvitation();
  const revoke = useRevokeInvitation();
  const [revoking, setRevoking] = useState<Invitation | null>(null);
  if (error) return <ErrorNotice error={error} className="section-gap" />;
  if (!data || data.items.length === 0) return null;
  return (
    <section className="panel section-gap" aria-labelledby="invitations-title">
      <h3 id="invitations-title" className="panel__title">
        Invitations
      </h3>
      <ul className="invites">
        {data.items.map((i) => (
          <li key={i.id} className="invites__row" data-testid="invitation-row">
            <span className="invites__who">
              <span className="invites__email">{i.email}</span>
              <span className="muted">
                {roleLabel[i.role]} · invited by {i.invitedBy} ·{' '}
                {i.expired ? (
                  <span className="pill pill--off">Expired</span>
                ) : (
                  <>
                    expires <RelativeTime iso={i.expiresAt} />
                  </>
                )}
              </span>
            </span>
            <span className="invites__buttons">
              <Button
                size="sm"
                busy={resend.isPending && resend.variables === i.id}
                onClick={() => resend.mutate(i.id, { onSuccess: onSent })}
                aria-label={`Resend the invitation to ${i.email}`}
              >
                Resend
              </Button>
              <Button
                size="sm"
                variant="danger"
                onClick={() => {
                  revoke.reset();
                  setRevoking(i);
                }}
                aria-label={`Revoke the invitation to ${i.email}`}
              >
                Revoke
              </Button>
            </span>
          </li>
        ))}
      </ul>
      {resend.error && <ErrorNotice error={resend.error} />}
      <ConfirmDialog
        open={revoking !== null}
        title={revoking ? `Revoke the invitation to ${revoking.email}?` : ''}
        confirmLabel="Revoke invitation"
        tone="danger"
        busy={revoke.isPending}
        error={revoke.error ? <ErrorNotice error={revoke.error} /> : undefined}
        onCancel={() => setRevoking(null)}
        onConfirm={() =>
          revoking && revoke.mutate(revoking.id, { onSuccess: () => setRevoking(null) })
        }
      >
        Its link stops working. You can invite them again later.
      </ConfirmDialog>
    </section>
  );
}
