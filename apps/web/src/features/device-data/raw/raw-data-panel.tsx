/* Choose a resource and a period, ask the provider through the portal, show its answer as received. */
import { Alert, Button, Card, Group, Select, TextInput } from '@mantine/core';
import { DATA_MESSAGES, PROVIDER_BRAND, type Provider } from '@trialwear/contract';
import { useState } from 'react';
import { useRawData } from '../api/raw-data-api';
import { dataErrorText } from '../lib/data-error';
import { RawAnswer } from './raw-answer';
import { defaultRawPeriod, RAW_CHOICES, type RawPeriod, rawRequestFor } from './raw-resources';

export function RawDataPanel({ participantId, provider }: { participantId: number; provider: Provider }) {
  const choices = RAW_CHOICES[provider];
  const [resource, setResource] = useState<string>(choices[0]!.value);
  const [period, setPeriod] = useState<RawPeriod>(() => defaultRawPeriod());
  const [reason, setReason] = useState<string | null>(null);
  const raw = useRawData(participantId, provider);
  const usesEnd = provider !== 'omron';

  const send = () => {
    const built = rawRequestFor(provider, resource, period);
    if (!built.ok) {
      setReason(built.reason);
      return;
    }
    setReason(null);
    raw.mutate(built.request);
  };

  return (
    <>
      <Card withBorder>
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            send();
          }}
        >
          <Group align="flex-end">
            <Select
              label={`${PROVIDER_BRAND[provider]} resource`}
              data={choices}
              value={resource}
              onChange={(v) => v && setResource(v)}
              w={260}
            />
            <TextInput
              label={usesEnd ? 'Start date' : 'Since'}
              type="date"
              value={period.start}
              onChange={(e) => {
                const start = e.currentTarget.value;
                setPeriod((p) => ({ ...p, start }));
              }}
              w={170}
            />
            {usesEnd && (
              <TextInput
                label="End date"
                type="date"
                value={period.end}
                onChange={(e) => {
                  const end = e.currentTarget.value;
                  setPeriod((p) => ({ ...p, end }));
                }}
                w={170}
              />
            )}
            <Button type="submit" loading={raw.isPending}>
              Get raw data
            </Button>
          </Group>
        </form>
      </Card>
      {reason && <Alert color="orange">{reason}</Alert>}
      {raw.error && (
        <Alert color="red">
          {dataErrorText(
            raw.error,
            DATA_MESSAGES.fitbitRequestFailed.replace('Fitbit', PROVIDER_BRAND[provider]),
          )}
        </Alert>
      )}
      {raw.data && <RawAnswer answer={raw.data} />}
    </>
  );
}
