import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Card, Select, Stack, TextInput, Title } from '@mantine/core';
import { approveSignupSchema, SIGNUP_MESSAGES, SIGNUP_ROLES } from '@trialwear/contract';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import type { z } from 'zod';
import { displayableMessage } from '../../../lib/api-client';
import { approveSignup, useSysAdminTeams } from '../api/signup-api';

type Form = z.input<typeof approveSignupSchema>;

/** Sys_Admin: approve a sign-up request by emailing a single-use link with role and team. */
export default function SignupApprovalPage() {
  const teams = useSysAdminTeams();
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const { register, control, handleSubmit, reset, formState } = useForm<Form>({
    resolver: zodResolver(approveSignupSchema),
    defaultValues: { email: '', role: 'Viewer', teamId: '' as unknown as number, teamName: '' },
  });
  const onSubmit = handleSubmit(async (values) => {
    setResult(null);
    const teamName = teams.data?.find((t) => t.team_id === Number(values.teamId))?.team_name ?? '';
    try {
      const res = await approveSignup(values, teamName);
      setResult({ ok: true, text: res.message });
      reset();
    } catch (err) {
      setResult({ ok: false, text: displayableMessage(err, SIGNUP_MESSAGES.approvalFailed) });
    }
  });
  return (
    <Stack maw={520}>
      <Title order={2}>Sign-up approval</Title>
      {result && (
        <Alert color={result.ok ? 'teal' : 'red'} role={result.ok ? 'status' : 'alert'}>
          {result.text}
        </Alert>
      )}
      <Card withBorder>
        <form onSubmit={onSubmit} noValidate>
          <Stack>
            <TextInput
              label="Email"
              type="email"
              withAsterisk
              error={formState.errors.email?.message}
              {...register('email')}
            />
            <Controller
              control={control}
              name="role"
              render={({ field }) => (
                <Select
                  label="Role"
                  data={[...SIGNUP_ROLES]}
                  value={field.value}
                  onChange={(v) => field.onChange(v ?? 'Viewer')}
                />
              )}
            />
            <Controller
              control={control}
              name="teamId"
              render={({ field, fieldState }) => (
                <Select
                  label="Team"
                  withAsterisk
                  searchable
                  data={(teams.data ?? []).map((t) => ({
                    value: String(t.team_id),
                    label: `${t.team_name} (id ${t.team_id})`,
                  }))}
                  value={field.value ? String(field.value) : null}
                  onChange={(v) => field.onChange(v ? Number(v) : '')}
                  error={fieldState.error?.message}
                />
              )}
            />
            <Button type="submit" loading={formState.isSubmitting}>
              Send approval
            </Button>
          </Stack>
        </form>
      </Card>
    </Stack>
  );
}
