import { Alert, Loader } from '@mantine/core';
import { SIGNUP_MESSAGES } from '@trialwear/contract';
import { useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { CenteredCard } from '../../../components/centered-card';
import { displayableMessage } from '../../../lib/api-client';
import { validateSignupToken } from '../api/signup-api';

/** The emailed sign-up link lands here: check the token, then go to the sign-up form. */
export default function SignupValidationPage() {
  const token = useSearchParams()[0].get('token') ?? '';
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(token ? null : SIGNUP_MESSAGES.keyMissing);
  useEffect(() => {
    if (!token) return;
    validateSignupToken(token).then(
      (invite) => navigate('/SignupPage', { replace: true, state: { invitation: { ...invite, token } } }),
      (err) => setError(displayableMessage(err, SIGNUP_MESSAGES.failed)),
    );
  }, [token, navigate]);
  return (
    <CenteredCard
      title="Sign up"
      intro={
        error
          ? 'This sign-up link cannot be used. Ask the person who invited you for a new one.'
          : 'Checking your sign-up link…'
      }
    >
      {error ? <Alert color="red">{error}</Alert> : <Loader size="sm" />}
    </CenteredCard>
  );
}
