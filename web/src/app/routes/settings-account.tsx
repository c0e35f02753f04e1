import { ChangePasswordForm } from '../../features/auth/components/ChangePasswordForm';
import { ProfileEdit } from '../../features/auth/components/ProfileEdit';
import { ProfilePanel } from '../../features/auth/components/ProfilePanel';
import { TwoFactorPanel } from '../../features/auth/components/TwoFactorPanel';
import { PasskeysPanel } from '../../features/auth/components/passkeys/PasskeysPanel';
import { ContactMethodsPanel } from '../../features/escalation/components/ContactMethodsPanel';
import { QuietHoursPanel } from '../../features/escalation/components/QuietHoursPanel';

function Account() {
  return (
    <>
      <title>Account · Settings · Pagewatch</title>
      <h2 className="settings-title">Account</h2>
      <ProfilePanel />
      <ProfileEdit />
      <ChangePasswordForm />
      <TwoFactorPanel />
      <PasskeysPanel />
      <ContactMethodsPanel />
      <QuietHoursPanel />
    </>
  );
}

export { Account as Component };
