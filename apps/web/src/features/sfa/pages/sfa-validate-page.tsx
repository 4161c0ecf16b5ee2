import { Anchor } from '@mantine/core';
import { SFA_MESSAGES } from '@trialwear/contract';
import { Link, useNavigate } from 'react-router';
import { CenteredCard } from '../../../components/centered-card';
import { useSession } from '../../../lib/session/session-context';
import { validateTotp } from '../api/sfa-api';
import { CodeForm } from '../components/code-form';

export default function SfaValidatePage() {
  const { signedIn } = useSession();
  const navigate = useNavigate();
  return (
    <CenteredCard title="Second factor" intro="Enter the 6-digit code from your authenticator app.">
      <CodeForm
        submitLabel="Continue"
        withRemember
        fallbackError={SFA_MESSAGES.validateFailed}
        onCode={async (code, remember) => {
          signedIn(await validateTotp(code, remember));
          navigate('/', { replace: true });
        }}
      />
      <Anchor component={Link} to="/SFASendCodeViaMsgPage" size="sm">
        Send me a code by email instead
      </Anchor>
    </CenteredCard>
  );
}
