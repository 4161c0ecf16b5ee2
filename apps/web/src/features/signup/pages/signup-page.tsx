import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Anchor, Button, Checkbox, Group, PasswordInput, Stack, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { SIGNUP_MESSAGES, signupFormSchema, TIMINGS } from '@trialwear/contract';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useLocation, useNavigate } from 'react-router';
import type { z } from 'zod';
import { CenteredCard } from '../../../components/centered-card';
import { displayableMessage } from '../../../lib/api-client';
import { RecaptchaError, useRecaptcha } from '../../../lib/use-recaptcha';
import { type Invitation, signUp } from '../api/signup-api';

type Form = z.input<typeof signupFormSchema>;

export default function SignupPage() {
  const invitation = (useLocation().state as { invitation?: Invitation } | null)?.invitation;
  if (!invitation) {
    return (
      <CenteredCard title="Sign up" intro="Sign-up works through the link in your approval email.">
        <Alert color="red">{SIGNUP_MESSAGES.keyMissing}</Alert>
        <Anchor component={Link} to="/ContactUsForm/" size="sm">
          Contact us to ask for access
        </Anchor>
      </CenteredCard>
    );
  }
  return <SignupForm invitation={invitation} />;
}

function SignupForm({ invitation }: { invitation: Invitation }) {
  const navigate = useNavigate();
  const getToken = useRecaptcha();
  const [error, setError] = useState<string | null>(null);
  const { register, handleSubmit, formState } = useForm<Form>({
    resolver: zodResolver(signupFormSchema),
    defaultValues: {
      firstName: '',
      lastName: '',
      username: '',
      password: '',
      confirmPassword: '',
      organization: '',
    },
  });
  const errors = formState.errors;
  const onSubmit = handleSubmit(async (values) => {
    setError(null);
    try {
      const res = await signUp(values, invitation, await getToken('signup'));
      if (!res.success) {
        setError(SIGNUP_MESSAGES.unsuccessful);
        return;
      }
      notifications.show({ color: 'teal', message: res.message });
      setTimeout(
        () => navigate(res.data?.redirectTo ?? '/LoginPage', { replace: true }),
        TIMINGS.signupRedirectMs,
      );
    } catch (err) {
      setError(
        err instanceof RecaptchaError ? err.message : displayableMessage(err, SIGNUP_MESSAGES.failedRetry),
      );
    }
  });
  return (
    <CenteredCard
      title="Create your account"
      intro={`${invitation.email} · ${invitation.teamName} · ${invitation.role}`}
    >
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          {error && <Alert color="red">{error}</Alert>}
          <Group grow align="flex-start">
            <TextInput label="First Name" error={errors.firstName?.message} {...register('firstName')} />
            <TextInput label="Last Name" error={errors.lastName?.message} {...register('lastName')} />
          </Group>
          <TextInput
            label="Username"
            autoComplete="username"
            error={errors.username?.message}
            {...register('username')}
          />
          <PasswordInput
            label="Password"
            autoComplete="new-password"
            error={errors.password?.message}
            {...register('password')}
          />
          <PasswordInput
            label="Confirm Password"
            autoComplete="new-password"
            error={errors.confirmPassword?.message}
            {...register('confirmPassword')}
          />
          <TextInput
            label="Organization"
            error={errors.organization?.message}
            {...register('organization')}
          />
          <Checkbox
            label={
              <>
                I accept the{' '}
                <Anchor component={Link} to="/terms" target="_blank">
                  Terms
                </Anchor>
              </>
            }
            error={errors.acceptTerms?.message}
            {...register('acceptTerms')}
          />
          <Checkbox
            label={
              <>
                I accept the{' '}
                <Anchor component={Link} to="/privacy-policy" target="_blank">
                  Privacy Policy
                </Anchor>
              </>
            }
            error={errors.acceptPrivacy?.message}
            {...register('acceptPrivacy')}
          />
          <Button type="submit" loading={formState.isSubmitting}>
            Sign up
          </Button>
        </Stack>
      </form>
    </CenteredCard>
  );
}
