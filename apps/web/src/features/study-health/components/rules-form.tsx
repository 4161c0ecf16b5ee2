/*
 * The trial's study-health rules (issue #23 §3): each rule's switch and
 * numbers, the time zone, the digest's switch and time. Admin and Sys_Admin
 * edit; everyone else sees the same form read-only. The numbers are sent as
 * typed: the server's schema answers with one message per field, shown under
 * the field.
 */
import {
  Alert,
  Button,
  Card,
  Group,
  NumberInput,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { DATA_RETENTION_MESSAGES, type HealthRulesAnswer } from '@trialwear/contract';
import { useEffect, useId, useState } from 'react';
import { ApiRequestError, displayableMessage } from '../../../lib/api-client';
import { useSaveHealthRules } from '../api/study-health-api';

type Draft = {
  timezone: string;
  lowWear: { enabled: boolean; minHours: number | string; days: number | string };
  noSync: { enabled: boolean; hours: number | string };
  lowBattery: { enabled: boolean; percent: number | string };
  lowCgmActive: { enabled: boolean; percent: number | string; days: number | string };
  noBpReading: { enabled: boolean; days: number | string };
  digest: { enabled: boolean; localTime: string };
};

const toDraft = ({ isDefault: _d, updatedAt: _u, ...rules }: HealthRulesAnswer): Draft => rules;

/** '' stays '' (the server says the number is required); anything else as a number. */
const num = (v: number | string) => (v === '' ? '' : Number(v));

function toBody(d: Draft) {
  return {
    timezone: d.timezone,
    lowWear: { enabled: d.lowWear.enabled, minHours: num(d.lowWear.minHours), days: num(d.lowWear.days) },
    noSync: { enabled: d.noSync.enabled, hours: num(d.noSync.hours) },
    lowBattery: { enabled: d.lowBattery.enabled, percent: num(d.lowBattery.percent) },
    lowCgmActive: {
      enabled: d.lowCgmActive.enabled,
      percent: num(d.lowCgmActive.percent),
      days: num(d.lowCgmActive.days),
    },
    noBpReading: { enabled: d.noBpReading.enabled, days: num(d.noBpReading.days) },
    digest: d.digest,
  };
}

export function RulesForm({
  trialId,
  rules,
  editable,
}: {
  trialId: number;
  rules: HealthRulesAnswer;
  editable: boolean;
}) {
  const [draft, setDraft] = useState<Draft>(() => toDraft(rules));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saved, setSaved] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const save = useSaveHealthRules(trialId);
  const titleId = useId();

  useEffect(() => setDraft(toDraft(rules)), [rules]);
  useEffect(() => {
    if (!saved) return;
    const t = setTimeout(() => setSaved(false), 4000);
    return () => clearTimeout(t);
  }, [saved]);

  const set = <K extends keyof Draft>(key: K, value: Partial<Draft[K]> | Draft[K]) =>
    setDraft((d) => ({
      ...d,
      [key]: typeof value === 'object' && value !== null ? { ...(d[key] as object), ...value } : value,
    }));

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setSaved(false);
    setFailure(null);
    try {
      await save.mutateAsync(toBody(draft));
      setErrors({});
      setSaved(true);
    } catch (err) {
      const fields = err instanceof ApiRequestError ? (err.body?.errors ?? []) : [];
      setErrors(Object.fromEntries(fields.map((f) => [f.path, f.message])));
      setFailure(fields.length ? 'Please correct the fields marked below.' : displayableMessage(err));
    }
  };

  const readOnly = !editable;
  const sw = (label: string, key: Exclude<keyof Draft, 'timezone'>) =>
    // A disabled switch hides whether it is on: read-only, the state is said in words.
    readOnly ? (
      <Text size="sm">
        {label}: <strong>{draft[key].enabled ? 'On' : 'Off'}</strong>
      </Text>
    ) : (
      <Switch
        label={label}
        checked={draft[key].enabled}
        onChange={(e) => set(key, { enabled: e.currentTarget.checked })}
        disabled={readOnly}
        error={errors[`${key}.enabled`]}
      />
    );
  const number = (
    label: string,
    key: Exclude<keyof Draft, 'timezone' | 'digest'>,
    field: string,
    extra: { step?: number; suffix?: string } = {},
  ) => (
    <NumberInput
      label={label}
      value={(draft[key] as unknown as Record<string, number | string>)[field]}
      onChange={(v) => set(key, { [field]: v } as Partial<Draft[typeof key]>)}
      readOnly={readOnly}
      error={errors[`${key}.${field}`]}
      allowNegative
      hideControls={readOnly}
      decimalScale={extra.step === 0.5 ? 1 : undefined}
      step={extra.step ?? 1}
      suffix={extra.suffix}
    />
  );

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={titleId}>
      <Title order={3} id={titleId} mb="xs">
        Rules
      </Title>
      {readOnly && (
        <Text size="sm" c="dimmed" mb="sm">
          Only Admins can change the rules; you see them read-only.
        </Text>
      )}
      <form onSubmit={submit} noValidate aria-label="Study health rules">
        <Stack gap="md">
          {failure && (
            <Alert color="red" role="alert">
              {failure}
            </Alert>
          )}
          <TextInput
            label="Time zone of the trial"
            description="Sets the trial's days on this page and the digest's time. Participants' days stay their own local days."
            value={draft.timezone}
            onChange={(e) => set('timezone', e.currentTarget.value)}
            readOnly={readOnly}
            error={errors.timezone}
            maw={420}
          />
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
            <Stack gap={6}>
              {sw('Low wear', 'lowWear')}
              <Group grow>
                {number('Hours worn a day, below', 'lowWear', 'minHours', { step: 0.5 })}
                {number('For consecutive days', 'lowWear', 'days')}
              </Group>
            </Stack>
            <Stack gap={6}>
              {sw('No sync', 'noSync')}
              {number('Hours without a sync', 'noSync', 'hours')}
            </Stack>
            <Stack gap={6}>
              {sw('Low battery', 'lowBattery')}
              {number('Battery level below (%)', 'lowBattery', 'percent')}
            </Stack>
            <Stack gap={6}>
              <Text size="sm">
                Link errored or revoked: <strong>always on</strong>
              </Text>
            </Stack>
            <Stack gap={6}>
              {sw('Low CGM active time (Dexcom)', 'lowCgmActive')}
              <Group grow>
                {number('CGM active time below (%)', 'lowCgmActive', 'percent')}
                {number('For consecutive days', 'lowCgmActive', 'days')}
              </Group>
            </Stack>
            <Stack gap={6}>
              {sw('No blood-pressure reading (Omron)', 'noBpReading')}
              {number('Days without a reading', 'noBpReading', 'days')}
            </Stack>
            <Stack gap={6}>
              <Text size="sm">
                REDCap push failed (trials connected to REDCap): <strong>always on</strong>
              </Text>
            </Stack>
            <Stack gap={6}>
              {sw('Daily digest e-mail', 'digest')}
              <TextInput
                label="Digest time (HH:MM, trial time zone)"
                value={draft.digest.localTime}
                onChange={(e) => set('digest', { localTime: e.currentTarget.value })}
                readOnly={readOnly}
                error={errors['digest.localTime']}
              />
            </Stack>
          </SimpleGrid>
          {editable && (
            <Group>
              <Button type="submit" loading={save.isPending}>
                Save rules
              </Button>
              <Text size="sm" c="teal.9" role="status" aria-live="polite">
                {saved ? DATA_RETENTION_MESSAGES.saved : ''}
              </Text>
            </Group>
          )}
        </Stack>
      </form>
    </Card>
  );
}
