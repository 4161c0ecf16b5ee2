import { Alert, Button, Group } from '@mantine/core';
import { SFA_MESSAGES } from '@trialwear/contract';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { CenteredCard } from '../../../components/centered-card';
import { displayableMessage } from '../../../lib/api-client';
import { useSession } from '../../../lib/session/session-context';
import { sendEmailCode, validateTotp } from '../api/sfa-api';
import { CodeForm } from '../components/code-form';

/** Second factor by email: send a code, then enter it; on a send failure, offer the authenticator. */
export default function SfaSendCodePage() {
  const { signedIn } = useSession();
  const navigate = useNavigate();
  const [state, setState] = useState<'idle' | 'sending' | 'sent' | 'failed'>('idle');
  const [message, setMessage] = useState<string | null>(null);
  const send = async () => {
    setState('sending');
    try {
      setMessage((await sendEmailCode()).message);
      setState('sent');
    } catch (err) {
      setMessage(displayableMessage(err, SFA_MESSAGES.sendFailed));
      setState('failed');
    }
  };
  return (
    <CenteredCard
      title="Sign-in code by email"
      intro="We send a 6-digit code to the email address of your account."
    >
      {state === 'failed' && (
        <Alert color="red" title={SFA_MESSAGES.sendFailed}>
          {message !== SFA_MESSAGES.sendFailed && message}
          <Group mt="sm">
            <Button component={Link} to="/SFAValidatePage" variant="light" size="xs">
              Use the authenticator instead
            </Button>
          </Group>
        </Alert>
      )}
      {state === 'sent' && <Alert color="teal">{message}</Alert>}
      <Button variant={state === 'sent' ? 'default' : 'filled'} loading={state === 'sending'} onClick={send}>
        {state === 'sent' ? 'Send another code' : 'Send code'}
      </Button>
      {state === 'sent' && (
        <CodeForm
          submitLabel="Continue"
          withRemember
          fallbackError={SFA_MESSAGES.validateFailed}
          onCode={async (code, remember) => {
            signedIn(await validateTotp(code, remember));
            navigate('/', { replace: true });
          }}
        />
      )}
    </CenteredCard>
  );
}
