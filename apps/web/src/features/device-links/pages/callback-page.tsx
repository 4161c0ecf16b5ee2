/*
 * Where Fitbit sends the browser back (core §2 authorization return pages):
 * waiting, success, cancelled or error. The state carries the participant.
 */
import { Alert, Button, Loader } from '@mantine/core';
import { AUTHORIZATION_FAILED, LINK_MESSAGES, PROVIDER_BRAND, type Provider } from '@trialwear/contract';
import { useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { CenteredCard } from '../../../components/centered-card';
import { ApiRequestError } from '../../../lib/api-client';
import { useSession } from '../../../lib/session/session-context';
import { completeConsent } from '../api/device-links-api';

type View =
  | { kind: 'waiting' }
  | { kind: 'success'; message: string }
  | { kind: 'cancelled' }
  | { kind: 'error'; message: string };

const CANCELLED = 'The authorization has been canceled. You may now close this page.';

export function CallbackPage({ provider }: { provider: Provider }) {
  const [params] = useSearchParams();
  const { session } = useSession();
  const navigate = useNavigate();
  const [view, setView] = useState<View>({ kind: 'waiting' });
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return; // the code works once: never post it twice (StrictMode runs effects twice)
    started.current = true;
    const code = params.get('code');
    const state = params.get('state');
    if (params.get('error') === 'access_denied') return setView({ kind: 'cancelled' });
    if (!code || !state) return setView({ kind: 'error', message: AUTHORIZATION_FAILED[provider] });
    completeConsent(provider, code, state).then(
      (r) => setView({ kind: 'success', message: r.message }),
      (err) =>
        setView({
          kind: 'error',
          message:
            err instanceof ApiRequestError && err.status === 422
              ? LINK_MESSAGES.invalidState
              : LINK_MESSAGES.authFailed,
        }),
    );
  }, [params, provider]);

  const signedIn = session.kind === 'authorized';
  // The error texts say 'Please click Cancel': a window opened by script closes,
  // staff return to the trial, anyone else (a participant) to the login page.
  const cancel = () => {
    if (window.opener) {
      window.close();
      return;
    }
    navigate(signedIn ? '/TrialPage' : '/LoginPage');
  };
  return (
    <CenteredCard
      title={`${PROVIDER_BRAND[provider]} authorization`}
      intro={`Connecting your ${PROVIDER_BRAND[provider]} to your study.`}
    >
      {view.kind === 'waiting' && <Loader size="sm" />}
      {view.kind === 'success' && (
        <Alert color="teal" role="status">
          {view.message}
        </Alert>
      )}
      {view.kind === 'cancelled' && <Alert color="yellow">{CANCELLED}</Alert>}
      {view.kind === 'error' && (
        <>
          <Alert color="red">{view.message}</Alert>
          <Button variant="default" onClick={cancel}>
            Cancel
          </Button>
        </>
      )}
      {signedIn && (view.kind === 'success' || view.kind === 'cancelled') && (
        <Button onClick={() => navigate('/TrialPage')}>Back to the trial</Button>
      )}
    </CenteredCard>
  );
}

export default function FitbitCallbackPage() {
  return <CallbackPage provider="fitbit" />;
}
