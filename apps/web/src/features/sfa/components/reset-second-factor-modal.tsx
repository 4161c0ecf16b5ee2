/*
 * Reset Second Factor (profile menu): replacing the authenticator needs the
 * current password, asked in this modal. A wrong password is refused with the
 * server's message and counts toward the lock; at the limit the account
 * locks and the user is signed out with the lock message (core §4).
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Group, Modal, PasswordInput, Stack, Text } from '@mantine/core';
import {
  ACCOUNT_LOCKED,
  RESET_SFA_MESSAGES,
  type ResetSfaRequest,
  resetSfaSchema,
  SFA_MESSAGES,
} from '@trialwear/contract';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { ApiRequestError, displayableMessage } from '../../../lib/api-client';
import { useSession } from '../../../lib/session/session-context';
import { resetSfa } from '../api/sfa-api';

export function ResetSecondFactorModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { reload, logout } = useSession();
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const { register, handleSubmit, reset, formState } = useForm<ResetSfaRequest>({
    resolver: zodResolver(resetSfaSchema),
    defaultValues: { currentPassword: '' },
  });
  const close = () => {
    setError(null);
    reset();
    onClose();
  };
  const onSubmit = handleSubmit(async ({ currentPassword }) => {
    setError(null);
    try {
      const { message } = await resetSfa(currentPassword);
      close();
      await reload();
      navigate(message === 'SFAIsNotSet' ? '/SFASetupPage' : '/');
    } catch (err) {
      if (err instanceof ApiRequestError && err.body?.reason === ACCOUNT_LOCKED) {
        close();
        await logout(SFA_MESSAGES.locked);
        navigate('/LoginPage', { replace: true });
        return;
      }
      setError(displayableMessage(err, RESET_SFA_MESSAGES.failed));
    }
  });
  return (
    <Modal opened={opened} onClose={close} title={RESET_SFA_MESSAGES.title} centered>
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          <Text size="sm">{RESET_SFA_MESSAGES.confirm}</Text>
          {error && (
            <Alert color="red" role="alert">
              {error}
            </Alert>
          )}
          <PasswordInput
            label="Current Password"
            autoComplete="current-password"
            data-autofocus
            error={formState.errors.currentPassword?.message}
            {...register('currentPassword')}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" color="red" loading={formState.isSubmitting}>
              Reset second factor
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
