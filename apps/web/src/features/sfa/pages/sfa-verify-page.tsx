import { Anchor } from '@mantine/core';
import { SFA_MESSAGES } from '@trialwear/contract';
import { Link } from 'react-router';
import { CenteredCard } from '../../../components/centered-card';
import { CodeForm } from '../components/code-form';
import { useVerifyAndSignOut } from '../use-verify-and-sign-out';

/** The authenticator was set up but not yet confirmed: confirm it with a code. */
export default function SfaVerifyPage() {
  const verify = useVerifyAndSignOut();
  return (
    <CenteredCard
      title="Verify your authenticator"
      intro="Enter the 6-digit code your authenticator app shows for TrialWear."
    >
      <CodeForm
        submitLabel="Verify"
        withRemember={false}
        fallbackError={SFA_MESSAGES.validateFailed}
        onCode={verify}
      />
      <Anchor component={Link} to="/SFASetupPage" size="sm">
        Lost the QR code? Set up again
      </Anchor>
    </CenteredCard>
  );
}
