import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, PasswordInput, Stack } from '@mantine/core';
import {
  ACCOUNT_LOCKED,
  changePasswordSchema,
  PASSWORD_FLOW_MESSAGES,
  SFA_MESSAGES,
} from '@trialwear/contract';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import type { z } from 'zod';
import { CenteredCard } from '../../../components/centered-card';
import { ApiRequestError, displayableMessage } from '../../../lib/api-client';
import { useSession } from '../../../lib/session/session-context';
import { changePassword } from '../api/passwords-api';

type Form = z.input<typeof changePasswordSchema>;

export default function ChangePasswordPage() {
  const { logout } = useSession();
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const { register, handleSubmit, formState } = useForm<Form>({
    resolver: zodResolver(changePasswordSchema),
    defaultValues: { currentPassword: '', newPassword: '', newConfirmPassword: '' },
  });
  const onSubmit = handleSubmit(async (values) => {
    setError(null);
    try {
      await changePassword(values);
      // Every session ended on the server: sign in again with the new password (core §4).
      await logout(`${PASSWORD_FLOW_MESSAGES.newPasswordSet} Please log in again.`);
      navigate('/LoginPage', { replace: true });
    } catch (err) {
      // Too many wrong current passwords lock the account and end every session (core §4: log out with the lock message).
      if (err instanceof ApiRequestError && err.body?.reason === ACCOUNT_LOCKED) {
        await logout(SFA_MESSAGES.locked);
        navigate('/LoginPage', { replace: true });
        return;
      }
      setError(displayableMessage(err, PASSWORD_FLOW_MESSAGES.changeFailed));
    }
  });
  return (
    <CenteredCard title="Change Password" intro="After the change you sign in again everywhere.">
      <form
        onSubmit={(e) => {
          // A new attempt replaces the last one's server error, also when the form itself refuses it.
          setError(null);
          return onSubmit(e);
        }}
        noValidate
      >
        <Stack>
          {error && <Alert color="red">{error}</Alert>}
          <PasswordInput
            label="Current Password"
            autoComplete="current-password"
            error={formState.errors.currentPassword?.message}
            {...register('currentPassword')}
          />
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
            Change password
          </Button>
        </Stack>
      </form>
    </CenteredCard>
  );
}
