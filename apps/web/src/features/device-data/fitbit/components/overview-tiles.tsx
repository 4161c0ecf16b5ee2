/*
 * The overview tiles (issue #10 item 3): one tile per subject of `/overview`,
 * reordered by drag with dnd-kit (mouse, touch and keyboard: focus a tile's
 * handle, Space, arrows, Space) in Shift mode (move, others shift and
 * renumber) or Swap mode (exchange two tiles); tiles can be selected, tables
 * expanded one by one or all (or all selected) at once; the order is kept per
 * user. Also stores the local summary on the server and shows its date.
 */

import {
  closestCenter,
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import { rectSortingStrategy, SortableContext, sortableKeyboardCoordinates } from '@dnd-kit/sortable';
import { Alert, Button, Group, Loader, SegmentedControl, SimpleGrid, Stack, Text } from '@mantine/core';
import type { SummarySubject } from '@trialwear/contract';
import { useEffect, useState } from 'react';
import { useSession } from '../../../../lib/session/session-context';
import { useLocalSummary, useSaveLocalSummary, useTrackerOverview } from '../../api/fitbit-data-api';
import { dataErrorText } from '../data-error';
import { FITBIT_SUBJECTS, type FitbitSubjectKey } from '../fitbit-subjects';
import { OVERVIEW_SUBJECT } from '../overview-subjects';
import type { DataParticipant } from '../page-state';
import { loadTileOrder, reorder, reorderMessage, saveTileOrder, type TileMode } from '../tile-order';
import { OverviewTile } from './overview-tile';

/** A tile's title, as its heading shows it. */
const tileTitle = (subject: SummarySubject) => FITBIT_SUBJECTS[OVERVIEW_SUBJECT[subject]].label;

/** In Swap mode the other tiles stay in place while one is dragged over them. */
const noShift = () => null;

export function OverviewTiles({
  participant,
  onOpenSubject,
}: {
  participant: DataParticipant;
  onOpenSubject?: (subject: FitbitSubjectKey) => void;
}) {
  const { session } = useSession();
  const userId = session.kind === 'authorized' ? session.user.id : null;
  const overview = useTrackerOverview(participant.id, participant.email);
  const stored = useLocalSummary(participant.id);
  const save = useSaveLocalSummary(participant.id, participant.email);
  const [order, setOrder] = useState<SummarySubject[]>(() => loadTileOrder(userId));
  const [mode, setMode] = useState<TileMode>('shift');
  const [expanded, setExpanded] = useState<Set<SummarySubject>>(new Set());
  const [selected, setSelected] = useState<Set<SummarySubject>>(new Set());
  const [announce, setAnnounce] = useState('');

  useEffect(() => setOrder(loadTileOrder(userId)), [userId]);

  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    const from = order.indexOf(active.id as SummarySubject);
    const to = order.indexOf(over.id as SummarySubject);
    const next = reorder(mode, order, from, to);
    setOrder(next);
    saveTileOrder(userId, next);
    setAnnounce(reorderMessage(mode, tileTitle(order[from]!), tileTitle(order[to]!), to));
  };

  const toggle = (set: Set<SummarySubject>, s: SummarySubject) => {
    const next = new Set(set);
    if (next.has(s)) next.delete(s);
    else next.add(s);
    return next;
  };
  /** Expand/collapse all: the selected tiles when some are selected, else every tile. */
  const targets = selected.size ? [...selected] : order;

  return (
    <Stack>
      <Group justify="space-between">
        <Group>
          <SegmentedControl
            aria-label="Reorder mode"
            value={mode}
            onChange={(v) => setMode(v as TileMode)}
            data={[
              { value: 'shift', label: 'Shift mode' },
              { value: 'swap', label: 'Swap mode' },
            ]}
          />
          <Button size="xs" variant="default" onClick={() => setExpanded(new Set([...expanded, ...targets]))}>
            {selected.size ? 'Expand selected' : 'Expand all'}
          </Button>
          <Button
            size="xs"
            variant="default"
            onClick={() => setExpanded(new Set([...expanded].filter((s) => !targets.includes(s))))}
          >
            {selected.size ? 'Collapse selected' : 'Collapse all'}
          </Button>
          {selected.size > 0 && (
            <Button size="xs" variant="subtle" onClick={() => setSelected(new Set())}>
              Clear selection ({selected.size})
            </Button>
          )}
        </Group>
        <Group gap="xs">
          <Text size="sm" c="dimmed" data-testid="stored-summary">
            {stored.data?.summary
              ? `Stored summary: ${new Date(stored.data.summary.computedAt).toLocaleString()}`
              : stored.isSuccess
                ? 'No summary stored yet'
                : ''}
          </Text>
          <Button size="xs" variant="light" loading={save.isPending} onClick={() => save.mutate()}>
            Save summary
          </Button>
        </Group>
      </Group>
      {save.error && <Alert color="red">{dataErrorText(save.error)}</Alert>}
      <Text size="sm" c="dimmed">
        Drag a tile by its numbered handle (or focus it, press Space, move with the arrow keys, Space again).{' '}
        {mode === 'shift'
          ? 'Shift mode: the other tiles move along.'
          : 'Swap mode: two tiles exchange places.'}
      </Text>
      <div aria-live="polite" style={{ position: 'absolute', left: -9999 }}>
        {announce}
      </div>
      {overview.isLoading && <Loader size="sm" aria-label="Loading overview" />}
      {overview.error != null && <Alert color="red">{dataErrorText(overview.error)}</Alert>}
      {overview.data && (
        <>
          <Text size="xs" c="dimmed">
            Last 7 local days ending {overview.data.overview.summary.subjects.steps?.last7.to ?? ''} against
            the 7 before; participant’s time zone {overview.data.timeZone}.
          </Text>
          <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
            <SortableContext items={order} strategy={mode === 'shift' ? rectSortingStrategy : noShift}>
              <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
                {order.map((s, i) => (
                  <OverviewTile
                    key={s}
                    subject={s}
                    position={i + 1}
                    overview={overview.data.overview}
                    timeZone={overview.data.timeZone}
                    expanded={expanded.has(s)}
                    selected={selected.has(s)}
                    onToggleExpanded={() => setExpanded(toggle(expanded, s))}
                    onToggleSelected={() => setSelected(toggle(selected, s))}
                    onOpen={onOpenSubject ? () => onOpenSubject(OVERVIEW_SUBJECT[s]) : undefined}
                  />
                ))}
              </SimpleGrid>
            </SortableContext>
          </DndContext>
        </>
      )}
    </Stack>
  );
}
