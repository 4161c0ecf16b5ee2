import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Anchor, Button, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { ACCOUNT_LOCKED, LOGIN_MESSAGES, type LoginForm, loginFormSchema } from '@trialwear/contract';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { CenteredCard } from '../../../components/centered-card';
import { ApiRequestError, NetworkError } from '../../../lib/api-client';
import { RecaptchaError, useRecaptcha } from '../../../lib/use-recaptcha';
import { participantLogin } from '../api/participant-portal-api';

/**
 * Sign-in for participant accounts (issue #14; the spec leaves its states
 * open). The errors are the staff sign-in's. Opened from the sign-up mail's
 * link (?verify=…), the sign-in also confirms the account's email address.
 */
export default function ParticipantLoginPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const verifyToken = params.get('verify') ?? undefined;
  const getToken = useRecaptcha();
  const [error, setError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<LoginForm>({
    resolver: zodResolver(loginFormSchema),
    defaultValues: { username: '', password: '' },
  });

  const onSubmit = handleSubmit(async (values) => {
    setError(null);
    try {
      const token = await getToken('participant_login');
      await participantLogin(values.username, values.password, token, verifyToken);
      queryClient.removeQueries({ queryKey: ['participantAccount'] });
      queryClient.removeQueries({ queryKey: ['participantSharing'] });
      navigate('/ParticipantHome', { replace: true });
    } catch (err) {
      if (err instanceof RecaptchaError) setError(err.message);
      else if (err instanceof NetworkError) setError(LOGIN_MESSAGES.noResponse);
      else if (err instanceof ApiRequestError && err.body?.displayToUser)
        setError(
          err.body.reason === ACCOUNT_LOCKED
            ? `Login failed: ${err.body.message}. Try again later.`
            : `Login failed: ${err.body.message}`,
        );
      else setError(LOGIN_MESSAGES.failed);
    }
  });

  return (
    <CenteredCard
      title="Participant login"
      intro={
        verifyToken
          ? 'Sign in once to confirm your email address.'
          : 'See which devices you share with which study, and stop sharing.'
      }
    >
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          <div aria-live="assertive">
            {error && (
              <Alert color="red" role="alert">
                {error}
              </Alert>
            )}
          </div>
          <TextInput
            label="Username"
            autoComplete="username"
            error={errors.username?.message}
            {...register('username')}
          />
          <PasswordInput
            label="Password"
            autoComplete="current-password"
            error={errors.password?.message}
            {...register('password')}
          />
          <Button type="submit" loading={isSubmitting} fullWidth>
            Log in
          </Button>
        </Stack>
      </form>
      <Text size="sm">
        To start sharing, open the consent link your study team emailed you. No account yet?{' '}
        <Anchor component={Link} to="/ParticipantSignupPage">
          Sign up
        </Anchor>
        . Questions?{' '}
        <Anchor component={Link} to="/ContactUsForm/">
          Contact us
        </Anchor>
        .
      </Text>
    </CenteredCard>
  );
}
