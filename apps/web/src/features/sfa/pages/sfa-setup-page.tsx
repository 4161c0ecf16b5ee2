import { Alert, Button, Code, Image, Loader, Stack, Text } from '@mantine/core';
import { isValidSetupKey, isValidSetupQr, SFA_MESSAGES, type SfaSetup } from '@trialwear/contract';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { CenteredCard } from '../../../components/centered-card';
import { displayableMessage } from '../../../lib/api-client';
import { useSession } from '../../../lib/session/session-context';
import { getSetup } from '../api/sfa-api';
import { CodeForm } from '../components/code-form';
import { useVerifyAndSignOut } from '../use-verify-and-sign-out';

/** Set up the authenticator: scan the QR (or type the key), then prove it with a first code. */
export default function SfaSetupPage() {
  const { session } = useSession();
  // A fully signed-in user has a validated second factor: nothing to set up here.
  if (session.kind === 'authorized') return <AlreadyValidated />;
  return <SetupAuthenticator />;
}

function AlreadyValidated() {
  const navigate = useNavigate();
  return (
    <CenteredCard
      title="Authenticator already set up"
      intro="Your second factor is set up and validated for this session."
    >
      <Text size="sm">To use another authenticator, choose Reset Second Factor in the profile menu.</Text>
      <Button onClick={() => navigate('/')}>Go to the dashboard</Button>
    </CenteredCard>
  );
}

function SetupAuthenticator() {
  const verify = useVerifyAndSignOut();
  const [setup, setSetup] = useState<SfaSetup | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    getSetup().then(
      (s) => {
        // Show nothing the server sent that is not what we expect (core §5).
        if (!isValidSetupQr(s.qrImage)) setError(SFA_MESSAGES.invalidQr);
        else if (!isValidSetupKey(s.key)) setError(SFA_MESSAGES.invalidKey);
        else setSetup(s);
      },
      (err) => setError(displayableMessage(err, SFA_MESSAGES.validateFailed)),
    );
  }, []);

  return (
    <CenteredCard
      title="Set up your authenticator"
      intro="Scan the QR code with an authenticator app (Google Authenticator, Microsoft Authenticator, 1Password…), then enter the 6-digit code it shows."
    >
      {error && <Alert color="red">{error}</Alert>}
      {!setup && !error && <Loader size="sm" />}
      {setup && (
        <Stack gap="xs" align="center">
          <Image src={setup.qrImage} alt="Authenticator QR code" w={200} h={200} />
          <Text size="sm">Or enter this key:</Text>
          <Code data-testid="sfa-key" fz="sm">
            {setup.key}
          </Code>
        </Stack>
      )}
      {setup && (
        <CodeForm
          submitLabel="Verify"
          withRemember={false}
          fallbackError={SFA_MESSAGES.validateFailed}
          onCode={verify}
        />
      )}
    </CenteredCard>
  );
}
