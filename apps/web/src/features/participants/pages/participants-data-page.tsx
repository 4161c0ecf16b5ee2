import { Alert, Button, Card, Group, List, Radio, Stack, Text, Title } from '@mantine/core';
import type { Provider, Trial } from '@trialwear/contract';
import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router';

type Chosen = Array<{ id: number; email: string; participant_code?: string | null }>;
/** Dexcom data has no several-participants page in the spec. */
type DataProvider = Extract<Provider, 'fitbit' | 'omron'>;

/** Several participants selected on the trial page: choose the device whose data to compare (core §2). */
export default function ParticipantsDataPage() {
  const navigate = useNavigate();
  const state = useLocation().state as { participants?: Chosen; trial?: Trial } | null;
  const [device, setDevice] = useState<DataProvider>('fitbit');
  if (!state?.participants?.length)
    return <Alert color="red">Something went wrong! We could not find participant's info.</Alert>;
  const go = () =>
    navigate(device === 'fitbit' ? '/FitbitParticipantsDataPage' : '/OmronParticipantsDataPage', {
      state: { participants: state.participants, trial: state.trial },
    });
  return (
    <Stack maw={640}>
      <Title order={2}>Participants data</Title>
      <Card withBorder>
        <Text fw={600}>{state.participants.length} participants selected</Text>
        <List size="sm" mt="xs">
          {state.participants.map((p) => (
            <List.Item key={p.id}>
              #{p.id}
              {p.email ? ` · ${p.email}` : ''}
            </List.Item>
          ))}
        </List>
      </Card>
      <Radio.Group label="Device" value={device} onChange={(v) => setDevice(v as DataProvider)}>
        <Group mt="xs">
          <Radio value="fitbit" label="Fitness tracker (Fitbit)" />
          <Radio value="omron" label="Scale and blood pressure (Omron)" />
        </Group>
      </Radio.Group>
      <Group>
        <Button onClick={go}>Show data</Button>
      </Group>
    </Stack>
  );
}
