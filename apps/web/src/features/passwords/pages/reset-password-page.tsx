import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Anchor, Button, Loader, PasswordInput, Stack } from '@mantine/core';
import { PASSWORD_FLOW_MESSAGES, resetPasswordSchema } from '@trialwear/contract';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useSearchParams } from 'react-router';
import type { z } from 'zod';
import { CenteredCard } from '../../../components/centered-card';
import { resetPassword, validateResetToken } from '../api/passwords-api';

type Form = z.input<typeof resetPasswordSchema>;

export default function ResetPasswordPage() {
  const token = useSearchParams()[0].get('token') ?? '';
  const [state, setState] = useState<'checking' | 'valid' | 'invalid' | 'done' | 'failed'>(
    token ? 'checking' : 'invalid',
  );
  const { register, handleSubmit, formState } = useForm<Form>({
    resolver: zodResolver(resetPasswordSchema),
    defaultValues: { token, newPassword: '', newConfirmPassword: '' },
  });
  useEffect(() => {
    if (!token) return;
    validateResetToken(token).then(
      () => setState('valid'),
      () => setState('invalid'),
    );
  }, [token]);
  const onSubmit = handleSubmit(async (values) => {
    try {
      await resetPassword(values);
      setState('done');
    } catch {
      setState('failed');
    }
  });
  return (
    <CenteredCard
      title="Choose a new password"
      intro="8 to 20 characters with a lowercase and an uppercase letter, a digit and a special character."
    >
      {state === 'checking' && <Loader size="sm" />}
      {state === 'invalid' && (
        <Alert color="red">
          {token ? PASSWORD_FLOW_MESSAGES.resetValidationFailed : PASSWORD_FLOW_MESSAGES.resetKeyMissing}
        </Alert>
      )}
      {state === 'failed' && <Alert color="red">{PASSWORD_FLOW_MESSAGES.resetFailed}</Alert>}
      {state === 'done' && (
        <Alert color="teal" role="status">
          {PASSWORD_FLOW_MESSAGES.newPasswordSet}
        </Alert>
      )}
      {(state === 'valid' || state === 'failed') && (
        <form onSubmit={onSubmit} noValidate>
          <Stack>
            <PasswordInput
              label="New Password"
              autoComplete="new-password"
              error={formState.errors.newPassword?.message}
              {...register('newPassword')}
            />
            <PasswordInput
              label="Confirm New Password"
              autoComplete="new-password"
              error={formState.errors.newConfirmPassword?.message}
              {...register('newConfirmPassword')}
            />
            <Button type="submit" loading={formState.isSubmitting}>
              Set new password
            </Button>
          </Stack>
        </form>
      )}
      <Anchor component={Link} to="/LoginPage" size="sm">
        Go to login
      </Anchor>
    </CenteredCard>
  );
}
