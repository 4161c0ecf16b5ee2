import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Anchor, Button, Card, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import {
  ACCOUNT_LOCKED,
  LOCKOUT_MESSAGES,
  LOGIN_MESSAGES,
  type LoginForm,
  loginFormSchema,
} from '@trialwear/contract';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { pageForStatus } from '../../../app/route-guard';
import { ApiRequestError, NetworkError } from '../../../lib/api-client';
import { useSession } from '../../../lib/session/session-context';
import { RecaptchaError, useRecaptcha } from '../../../lib/use-recaptcha';
import { login } from '../api/login-api';

export default function LoginPage() {
  const { signedIn, logoutMessage } = useSession();
  const navigate = useNavigate();
  const getToken = useRecaptcha();
  const [error, setError] = useState<string | null>(null);
  const [locked, setLocked] = useState(false);
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
    setLocked(false);
    try {
      const token = await getToken('login');
      const res = await login(values.username, values.password, token);
      if (!res.user.role && res.message === 'Authorized') {
        setError(LOGIN_MESSAGES.roleMissing);
        return;
      }
      signedIn(res);
      navigate(pageForStatus(res.message), { replace: true });
    } catch (err) {
      if (err instanceof RecaptchaError) setError(err.message);
      else if (err instanceof NetworkError) setError(LOGIN_MESSAGES.noResponse);
      else if (err instanceof ApiRequestError && err.body?.displayToUser) {
        setError(`Login failed: ${err.body.message}`);
        setLocked(err.body.reason === ACCOUNT_LOCKED);
      } else setError(LOGIN_MESSAGES.failed);
    }
  });

  return (
    <Stack align="center" py="xl">
      <Card withBorder shadow="sm" radius="md" p="xl" w="100%" maw={420}>
        <form onSubmit={onSubmit} noValidate>
          <Stack>
            <div>
              <Title order={2}>Welcome to TrialWear</Title>
              <Text c="dimmed" size="sm">
                Sign in to manage your trials and participants' device data.
              </Text>
            </div>
            {logoutMessage && <Alert color="yellow">{logoutMessage}</Alert>}
            {error && (
              <Alert color="red" role="alert">
                {error}
                {locked && (
                  <Text size="sm" mt={6}>
                    {LOCKOUT_MESSAGES.loginHint}
                  </Text>
                )}
              </Alert>
            )}
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
            <Anchor component={Link} to="/ResetPwdReqPage" size="sm">
              Forgot your password?
            </Anchor>
            <Text size="sm" c="dimmed">
              New to TrialWear?{' '}
              <Anchor component={Link} to="/ContactUsForm/">
                Contact us
              </Anchor>{' '}
              to sign up.
            </Text>
          </Stack>
        </form>
      </Card>
    </Stack>
  );
}
