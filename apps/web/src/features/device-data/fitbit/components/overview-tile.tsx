import { useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { Badge, Button, Card, Checkbox, Collapse, Group, Stack, Table, Text } from '@mantine/core';
import type { DayValue, SummarySubject, TrackerOverview } from '@trialwear/contract';
import { useMemo } from 'react';
import { changeColors } from '../../../../app/theme';
import { formatValue, localDaysToUnix, seriesFor, TimeChart } from '../../../../components/chart';
import { FITBIT_SUBJECTS } from '../fitbit-subjects';
import { isDailyTotal, OVERVIEW_SUBJECT, sevenVsSeven } from '../overview-subjects';

function ChangeText({ change, pct, unit }: { change: number | null; pct: number | null; unit: string }) {
  if (change === null) return <Text size="sm">Change: —</Text>;
  const sign = change > 0 ? '+' : '';
  return (
    <Text size="sm" c={change === 0 ? undefined : change > 0 ? changeColors.up : changeColors.down}>
      Change: {sign}
      {formatValue(change, unit)}
      {pct !== null && ` (${sign}${pct}%)`}
    </Text>
  );
}

/** One overview tile: 7-vs-7 daily averages, a 14-day chart, an expandable table; draggable by its handle. */
export function OverviewTile({
  subject,
  position,
  overview,
  timeZone,
  expanded,
  selected,
  onToggleExpanded,
  onToggleSelected,
  onOpen,
}: {
  subject: SummarySubject;
  position: number;
  overview: TrackerOverview;
  timeZone: string;
  expanded: boolean;
  selected: boolean;
  onToggleExpanded: () => void;
  onToggleSelected: () => void;
  onOpen?: () => void;
}) {
  const s = FITBIT_SUBJECTS[OVERVIEW_SUBJECT[subject]];
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } =
    useSortable({ id: subject });
  const stats = overview.summary.subjects[subject];
  const days: DayValue[] = overview.series[subject] ?? [];
  const show = s.display as (v: number) => number;
  const chart = useMemo(() => {
    const values = days.map((d) => (d.value === null ? null : show(d.value)));
    return {
      x: localDaysToUnix(
        days.map((d) => d.date),
        timeZone,
      ),
      series: [seriesFor(s.chart, values)],
      values,
    };
  }, [days, timeZone, s.chart, show]);
  const cmp = stats ? sevenVsSeven(subject, stats.last7, stats.previous7) : null;
  // "a day" of daily totals only: an average weight or resting heart rate is not per day.
  const perDay = isDailyTotal(subject) ? ' / day' : '';

  return (
    <Card
      ref={setNodeRef}
      withBorder
      data-tile={subject}
      aria-label={`Tile ${position}: ${s.label}`}
      style={{
        transform: CSS.Transform.toString(transform),
        transition,
        opacity: isDragging ? 0.6 : 1,
        zIndex: isDragging ? 5 : undefined,
        outline: selected ? '2px solid var(--mantine-color-blue-5)' : undefined,
      }}
    >
      <Stack gap={6}>
        <Group justify="space-between" wrap="nowrap">
          <Group gap="xs" wrap="nowrap">
            <Button
              ref={setActivatorNodeRef}
              {...attributes}
              {...listeners}
              size="compact-sm"
              variant="default"
              aria-label={`Move tile ${s.label} (position ${position})`}
              style={{ cursor: 'grab', touchAction: 'none' }}
            >
              ⠿ {position}
            </Button>
            <Text fw={600}>{s.label}</Text>
          </Group>
          <Checkbox
            aria-label={`Select ${s.label}`}
            checked={selected}
            onChange={onToggleSelected}
            size="xs"
          />
        </Group>
        {cmp && (
          <div>
            <Text size="sm">
              Last 7 days: <b>{formatValue(cmp.last, s.unit)}</b>
              {perDay}
            </Text>
            <Text size="sm" c="dimmed">
              Previous 7 days: {formatValue(cmp.previous, s.unit)}
              {perDay}
            </Text>
            <ChangeText change={cmp.change} pct={cmp.changePct} unit={s.unit} />
          </div>
        )}
        <TimeChart
          title={`${s.label}, last 14 days`}
          x={chart.x}
          series={chart.series}
          y={{ unit: s.unit }}
          timeZone={timeZone}
          height={150}
        />
        <Group gap="xs">
          <Button size="compact-xs" variant="light" onClick={onToggleExpanded} aria-expanded={expanded}>
            {expanded ? 'Hide table' : 'Show table'}
          </Button>
          {onOpen && (
            <Button size="compact-xs" variant="subtle" onClick={onOpen}>
              More {s.label.toLowerCase()} data
            </Button>
          )}
          <Badge variant="outline" size="sm" ml="auto">
            {s.unit}
          </Badge>
        </Group>
        <Collapse in={expanded}>
          <Table withTableBorder striped aria-label={`${s.label} last 14 days`}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Date</Table.Th>
                <Table.Th>
                  {s.label} ({s.unit})
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {days.map((d, i) => (
                <Table.Tr key={d.date}>
                  <Table.Td>{d.date}</Table.Td>
                  <Table.Td>
                    {chart.values[i] === null ? '—' : chart.values[i]!.toLocaleString('en-US')}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Collapse>
      </Stack>
    </Card>
  );
}
