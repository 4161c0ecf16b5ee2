import { Card, Group, Progress, SimpleGrid, Stack, Text, Tooltip } from '@mantine/core';
import type { GlucoseSummary } from '@trialwear/contract';
import { glucoseBands } from './glucose';

function Figure({ label, value, hint }: { label: string; value: string; hint?: string }) {
  return (
    <Stack gap={0} aria-label={label}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={700} size="lg">
        {value}
      </Text>
      {hint && (
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      )}
    </Stack>
  );
}

const pct = (n: number) => `${n.toFixed(1)}%`;

/**
 * The CGM summary clinicians read (international consensus): time in ranges
 * as a stacked bar and a coloured list, mean glucose, GMI, variability, and
 * how much of the period the sensor covered.
 */
export function GlucoseSummaryCard({ summary, days }: { summary: GlucoseSummary; days: number }) {
  const bands = glucoseBands(summary);
  return (
    <Card withBorder>
      <Stack>
        <Text fw={600}>Glucose summary · last {days === 1 ? '24 hours' : `${days} days`}</Text>
        <Group align="stretch" wrap="nowrap" gap="lg">
          <Progress.Root size={160} w={36} orientation="vertical" aria-label="Time in ranges">
            {bands.map((b) => (
              <Tooltip key={b.key} label={`${b.label}: ${pct(b.percent)}`}>
                <Progress.Section value={b.percent} color={b.color} />
              </Tooltip>
            ))}
          </Progress.Root>
          <Stack gap={4} aria-label="Time in ranges figures">
            {bands.map((b) => (
              <Group key={b.key} gap="xs">
                <Text
                  component="span"
                  w={12}
                  h={12}
                  style={{ borderRadius: 2, background: `var(--mantine-color-${b.color.replace('.', '-')})` }}
                />
                <Text size="sm">{b.label}</Text>
                <Text size="sm" fw={600}>
                  {pct(b.percent)}
                </Text>
              </Group>
            ))}
          </Stack>
          <SimpleGrid cols={{ base: 2, md: 3 }} spacing="lg" style={{ flex: 1 }}>
            <Figure label="Time in range 70–180" value={pct(summary.inRange)} hint="target > 70%" />
            <Figure label="Below 70" value={pct(summary.below70)} hint="target < 4%" />
            <Figure label="Below 54" value={pct(summary.below54)} hint="target < 1%" />
            <Figure label="Above 180" value={pct(summary.above180)} hint="target < 25%" />
            <Figure label="Above 250" value={pct(summary.above250)} hint="target < 5%" />
            <Figure
              label="Mean glucose"
              value={summary.mean === null ? '—' : `${summary.mean.toFixed(1)} mg/dL`}
            />
            <Figure label="GMI" value={summary.gmi === null ? '—' : pct(summary.gmi)} />
            <Figure
              label="Coefficient of variation"
              value={summary.cv === null ? '—' : pct(summary.cv)}
              hint="target ≤ 36%"
            />
            <Figure
              label="Readings"
              value={`${summary.readings} of ${summary.possibleReadings}`}
              hint={`${pct(summary.coverage)} of possible readings`}
            />
          </SimpleGrid>
        </Group>
      </Stack>
    </Card>
  );
}
