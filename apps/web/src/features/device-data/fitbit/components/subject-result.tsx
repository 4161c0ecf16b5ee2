import { Alert, Card, Loader, ScrollArea, Stack, Table, Text } from '@mantine/core';
import { useMemo } from 'react';
import { localDaysToUnix, seriesFor, TimeChart } from '../../../../components/chart';
import { useTrackerPaths } from '../../api/fitbit-data-api';
import { dataErrorText } from '../data-error';
import { FITBIT_SUBJECTS, type FitbitSubjectKey, pathsFor, rowsFor } from '../fitbit-subjects';
import type { DataParticipant } from '../page-state';
import { useProviderLimit } from './provider-limit';

/** One subject over a range: a chart and a table of the participant's local dates (display units). */
export function SubjectResult({
  participant,
  subject,
  start,
  end,
}: {
  participant: DataParticipant;
  subject: FitbitSubjectKey;
  start: string;
  end: string;
}) {
  const s = FITBIT_SUBJECTS[subject];
  const paths = useMemo(() => pathsFor(subject, start, end), [subject, start, end]);
  const q = useTrackerPaths(participant.id, participant.email, paths);
  // A provider limit is told once by the page (ProviderLimitScope), not by every chart.
  const limited = useProviderLimit(subject, q.error);
  const result = useMemo(() => {
    if (!q.data) return null;
    const timeZone = q.data[0]?.timeZone ?? 'UTC';
    const rows = rowsFor(
      subject,
      start,
      end,
      q.data.map((r) => r.series ?? []),
    );
    return {
      timeZone,
      rows,
      x: localDaysToUnix(
        rows.map((r) => r.date),
        timeZone,
      ),
      series: [
        seriesFor(
          s.chart,
          rows.map((r) => r.value),
        ),
      ],
    };
  }, [q.data, subject, start, end, s.chart]);

  const title = `${s.label} (${s.unit}), ${start} to ${end}`;
  return (
    <Card withBorder>
      <Stack>
        {q.isLoading && <Loader size="sm" aria-label="Loading data" />}
        {q.error != null && !limited && <Alert color="red">{dataErrorText(q.error)}</Alert>}
        {limited && (
          <Text size="sm" c="dimmed">
            {s.label}: not loaded yet (see the notice above).
          </Text>
        )}
        {result && (
          <>
            <TimeChart
              title={title}
              x={result.x}
              series={result.series}
              y={{ unit: s.unit }}
              timeZone={result.timeZone}
              granularity="days"
            />
            <Text size="xs" c="dimmed">
              Dates are the participant’s local dates ({result.timeZone}).
            </Text>
            <ScrollArea.Autosize mah={360}>
              <Table striped withTableBorder aria-label={`${s.label} table`} stickyHeader>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Date</Table.Th>
                    <Table.Th>
                      {s.label} ({s.unit})
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {result.rows.map((r) => (
                    <Table.Tr key={r.date}>
                      <Table.Td>{r.date}</Table.Td>
                      <Table.Td>
                        {r.text ?? (r.value === null ? '—' : r.value.toLocaleString('en-US'))}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </ScrollArea.Autosize>
          </>
        )}
      </Stack>
    </Card>
  );
}
