import { Group, Stack, Text } from '@mantine/core';
import { studyHealthDefinition } from '@trialwear/contract';
import type { CellTone } from '../heat-map';
import { WEAR_STEPS } from '../heat-map';
import classes from './heat-map.module.css';

/** The measures' definitions: the same text as the data dictionary's and the report's. */
const WEAR = studyHealthDefinition('wear_minutes');
const CGM = studyHealthDefinition('cgm_active_percent');
const BP = studyHealthDefinition('bp_readings');

/** A sample value of each wear step, shown in its swatch. */
const WEAR_SAMPLES = ['1', '4', '8', '12', '20'];

const OTHER: ReadonlyArray<{ tone: CellTone; text: string; label: string }> = [
  { tone: 'cgmOk', text: '85%', label: 'Dexcom: CGM active time (share of the 288 readings a day), ≥ 70 %' },
  { tone: 'cgmLow', text: '55%', label: 'Dexcom: CGM active time below 70 %' },
  { tone: 'bp', text: '2 BP', label: 'Omron: blood-pressure readings of the day' },
  { tone: 'none', text: '–', label: 'No data: not synced yet' },
];

/** What each cell means: the wear scale, the CGM and blood-pressure cells, grey for no data. */
export function HeatMapLegend() {
  return (
    <Stack gap={6} component="section" aria-label="Legend">
      <Text size="sm">
        <strong>{WEAR.name}</strong> (shown in hours; grey: no data): {WEAR.description}
      </Text>
      <Text size="sm">
        <strong>{CGM.name}</strong>: {CGM.description} <strong>{BP.name}</strong>: {BP.description}
      </Text>
      <Group gap="md" wrap="wrap">
        <Text size="sm" fw={600}>
          Hours worn:
        </Text>
        {WEAR_STEPS.map((s, i) => (
          <Group key={s.tone} gap={4} wrap="nowrap">
            <span className={`${classes.swatch} ${classes[s.tone]}`} aria-hidden="true">
              {WEAR_SAMPLES[i]}
            </span>
            <Text size="sm">{s.label}</Text>
          </Group>
        ))}
      </Group>
      <Group gap="md" wrap="wrap">
        {OTHER.map((s) => (
          <Group key={s.tone} gap={4} wrap="nowrap">
            <span className={`${classes.swatch} ${classes[s.tone]}`} aria-hidden="true">
              {s.text}
            </span>
            <Text size="sm">{s.label}</Text>
          </Group>
        ))}
      </Group>
    </Stack>
  );
}
