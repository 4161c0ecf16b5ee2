/*
 * Where Fitbit sends the browser back (core §2 authorization return pages):
 * waiting, success, cancelled or error. The state carries the participant.
 */
import { Alert, Button, Loader } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { ApiRequestError } from '../../../lib/api-client';
import { useSession } from '../../auth/session-context';
import { SfaCard } from '../../sfa/components/sfa-card';
import { completeConsent, type Provider } from '../api/device-links-api';

type View =
  | { kind: 'waiting' }
  | { kind: 'success'; message: string }
  | { kind: 'cancelled' }
  | { kind: 'error'; message: string };

export const CALLBACK_TEXTS = {
  cancelled: 'The authorization has been canceled. You may now close this page.',
  invalid: 'Invalid authorization request. Please try again.',
  failed: 'Unable to complete authorization. Please click Cancel and try again.',
} as const;

/** Error texts per provider (core §8 "Authorization"). */
const FAILED: Record<Provider, string> = {
  fitbit: 'Authorization failed - Please click Cancel and try again if needed!',
  omron: 'Authorization failed! Please click Cancel and try again if needed',
  dexcom: 'Authorization failed!',
};
const BRAND: Record<Provider, string> = { fitbit: 'Fitbit', omron: 'Omron', dexcom: 'Dexcom' };

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
    if (!code || !state) return setView({ kind: 'error', message: FAILED[provider] });
    completeConsent(provider, code, state).then(
      (r) => setView({ kind: 'success', message: r.message }),
      (err) =>
        setView({
          kind: 'error',
          message:
            err instanceof ApiRequestError && err.status === 422
              ? CALLBACK_TEXTS.invalid
              : CALLBACK_TEXTS.failed,
        }),
    );
  }, [params, provider]);

  const signedIn = session.kind === 'authorized';
  return (
    <SfaCard
      title={`${BRAND[provider]} authorization`}
      intro={`Connecting your ${BRAND[provider]} to your study.`}
    >
      {view.kind === 'waiting' && <Loader size="sm" />}
      {view.kind === 'success' && (
        <Alert color="teal" role="status">
          {view.message}
        </Alert>
      )}
      {view.kind === 'cancelled' && <Alert color="yellow">{CALLBACK_TEXTS.cancelled}</Alert>}
      {view.kind === 'error' && <Alert color="red">{view.message}</Alert>}
      {signedIn && view.kind !== 'waiting' && (
        <Button onClick={() => navigate('/TrialPage')}>Back to the trial</Button>
      )}
    </SfaCard>
  );
}

export default function FitbitCallbackPage() {
  return <CallbackPage provider="fitbit" />;
}
