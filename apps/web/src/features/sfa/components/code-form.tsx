/*
 * The 6-digit code form shared by the verify, validate and email-code pages.
 * A locked account (ACCOUNT_LOCKED) signs the user out with the lock message.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Checkbox, Stack, TextInput } from '@mantine/core';
import { ACCOUNT_LOCKED, SFA_MESSAGES, sfaCodeSchema } from '@trialwear/contract';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { z } from 'zod';
import { ApiRequestError, displayableMessage } from '../../../lib/api-client';
import { useSession } from '../../../lib/session/session-context';

const schema = z.object({ code: sfaCodeSchema, remember: z.boolean() });

export function CodeForm({
  submitLabel,
  withRemember,
  onCode,
  fallbackError,
}: {
  submitLabel: string;
  withRemember: boolean;
  onCode: (code: string, remember: boolean) => Promise<void>;
  fallbackError: string;
}) {
  const { logout } = useSession();
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const { register, handleSubmit, formState } = useForm<z.infer<typeof schema>>({
    resolver: zodResolver(schema),
    defaultValues: { code: '', remember: false },
  });
  const onSubmit = handleSubmit(async ({ code, remember }) => {
    setError(null);
    try {
      await onCode(code, remember);
    } catch (err) {
      if (err instanceof ApiRequestError && err.body?.reason === ACCOUNT_LOCKED) {
        await logout(SFA_MESSAGES.locked);
        navigate('/LoginPage', { replace: true });
        return;
      }
      setError(displayableMessage(err, fallbackError));
    }
  });
  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack>
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
        <TextInput
          label="Code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          error={formState.errors.code?.message}
          {...register('code')}
        />
        {withRemember && <Checkbox label={SFA_MESSAGES.rememberDevice} {...register('remember')} />}
        <Button type="submit" loading={formState.isSubmitting}>
          {submitLabel}
        </Button>
      </Stack>
    </form>
  );
}
