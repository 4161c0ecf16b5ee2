import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Anchor, Button, TextInput } from '@mantine/core';
import { emailSchema, GENERIC_ERRORS, PASSWORD_FLOW_MESSAGES } from '@trialwear/contract';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { z } from 'zod';
import { CenteredCard } from '../../../components/centered-card';
import { displayableMessage } from '../../../lib/api-client';
import { RecaptchaError, useRecaptcha } from '../../../lib/use-recaptcha';
import { requestPasswordReset } from '../api/passwords-api';

const schema = z.object({ email: emailSchema });

export default function ResetRequestPage() {
  const getToken = useRecaptcha();
  const [done, setDone] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const { register, handleSubmit, formState } = useForm<{ email: string }>({
    resolver: zodResolver(schema),
    defaultValues: { email: '' },
  });
  const onSubmit = handleSubmit(async ({ email }) => {
    setError(null);
    try {
      const res = await requestPasswordReset(email, await getToken('forgot_password'));
      setDone(res.message);
    } catch (err) {
      setError(err instanceof RecaptchaError ? err.message : displayableMessage(err, GENERIC_ERRORS.anError));
    }
  });
  return (
    <CenteredCard
      title="Reset your password"
      intro="Enter the email address of your account and we will send you a reset link."
    >
      {done ? (
        <Alert color="teal" role="status">
          {done === PASSWORD_FLOW_MESSAGES.resetRequested ? done : PASSWORD_FLOW_MESSAGES.resetRequested}
        </Alert>
      ) : (
        <form onSubmit={onSubmit} noValidate>
          {error && (
            <Alert color="red" mb="sm">
              {error}
            </Alert>
          )}
          <TextInput
            label="Email"
            type="email"
            autoComplete="email"
            error={formState.errors.email?.message}
            {...register('email')}
            mb="md"
          />
          <Button type="submit" loading={formState.isSubmitting} fullWidth>
            Send reset link
          </Button>
        </form>
      )}
      <Anchor component={Link} to="/LoginPage" size="sm">
        Back to login
      </Anchor>
    </CenteredCard>
  );
}
