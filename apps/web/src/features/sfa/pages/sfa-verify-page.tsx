import { Anchor } from '@mantine/core';
import { SFA_MESSAGES } from '@trialwear/contract';
import { Link, useNavigate } from 'react-router';
import { useSession } from '../../auth/session-context';
import { verifyTotp } from '../api/sfa-api';
import { CodeForm } from '../components/code-form';
import { SfaCard } from '../components/sfa-card';

/** The authenticator was set up but not yet confirmed: confirm it with a code. */
export default function SfaVerifyPage() {
  const { logout } = useSession();
  const navigate = useNavigate();
  return (
    <SfaCard
      title="Verify your authenticator"
      intro="Enter the 6-digit code your authenticator app shows for TrialWear."
    >
      <CodeForm
        submitLabel="Verify"
        withRemember={false}
        fallbackError={SFA_MESSAGES.validateFailed}
        onCode={async (code) => {
          await verifyTotp(code);
          await logout('Your authenticator is set up. Please log in again.');
          navigate('/LoginPage', { replace: true });
        }}
      />
      <Anchor component={Link} to="/SFASetupPage" size="sm">
        Lost the QR code? Set up again
      </Anchor>
    </SfaCard>
  );
}
