/*
 * The participants × days heat map (issue #23 §6) as one real <table>:
 * column headers for the dates, a row header per participant, and one
 * button per cell named "code, date: meaning". Only the rows in view (and a
 * few either side) are in the DOM: 1,000 participants × 90 days would be
 * 90,000 buttons, seconds of main thread; spacer rows keep the scroll height
 * of all of them, and aria-rowcount / aria-rowindex tell a screen reader
 * where it is (decision 038). Clicks and the arrow keys are handled once on
 * the table (one cell is in the tab order, the arrows move between cells and
 * scroll the next row in, Enter opens the day); the row holding that cell
 * stays rendered, so focus is never lost by scrolling it out of view.
 */
import { defaultRangeExtractor, type Range, useVirtualizer } from '@tanstack/react-virtual';
import { memo, useCallback, useEffect, useRef, useState } from 'react';
import { type HeatRow, LINK_LABELS, RULE_LABELS } from '../heat-map';
import classes from './heat-map.module.css';

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'short', timeStyle: 'short' });
const syncText = (iso: string | null) => (iso ? dateTime.format(new Date(iso)) : 'Never');
/** The columns' widths (px): the table's layout is fixed, so the cells are not measured. */
const WIDTHS = { code: 96, alerts: 170, sync: 136, battery: 64, link: 72, day: 44 };
const FIXED_WIDTH = WIDTHS.code + WIDTHS.alerts + WIDTHS.sync + WIDTHS.battery + WIDTHS.link;
const FIXED_COLUMNS = 5;
/** A row of one line (28 px cell + 1 px border); rows whose alerts wrap are measured. */
const ROW_HEIGHT = 29;
/** Rows rendered beyond the visible ones on each side: the arrow keys always find their neighbour. */
const OVERSCAN = 12;

/** Column headers: MM-DD (the full date is the header's accessible name). */
const shortDate = (date: string) => date.slice(5);

interface Props {
  rows: HeatRow[];
  dates: string[];
  onOpenDay: (row: HeatRow, date: string) => void;
  onOpenParticipant: (row: HeatRow) => void;
}

interface Cell {
  r: number;
  c: number;
}

export function HeatMapTable({ rows, dates, onOpenDay, onOpenParticipant }: Props) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const tableRef = useRef<HTMLTableElement>(null);
  // The cell in the tab order; `focusing` is set when the arrows moved it, so it gets focus once rendered.
  const [active, setActive] = useState<Cell>({ r: 0, c: 0 });
  const focusing = useRef(false);

  // The active cell's row is always rendered (the tab stop and focus survive scrolling away).
  const rangeExtractor = useCallback(
    (range: Range) => {
      const indexes = defaultRangeExtractor(range);
      if (active.r >= rows.length || indexes.includes(active.r)) return indexes;
      return [...indexes, active.r].sort((a, b) => a - b);
    },
    [active.r, rows.length],
  );
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: OVERSCAN,
    rangeExtractor,
    getItemKey: (i) => rows[i]!.participant.participantId,
    // Before the first measure: the container's max-height (70vh), so the first paint is whole.
    initialRect: { width: 0, height: Math.round(window.innerHeight * 0.7) },
  });
  const items = virtualizer.getVirtualItems();

  const cellAt = (r: number, c: number) =>
    tableRef.current?.querySelector<HTMLButtonElement>(`button[data-r="${r}"][data-c="${c}"]`) ?? null;

  useEffect(() => {
    if (!focusing.current) return;
    const el = cellAt(active.r, active.c);
    if (!el) return;
    focusing.current = false;
    el.focus();
  });

  const moveTo = (r: number, c: number) => {
    setActive({ r, c });
    const el = cellAt(r, c);
    if (el) return el.focus();
    // Not rendered (beyond the overscan): scroll its row in, focus it once rendered.
    focusing.current = true;
    virtualizer.scrollToIndex(r, { align: 'auto' });
  };

  const target = (e: React.SyntheticEvent) => {
    const el = (e.target as HTMLElement).closest<HTMLButtonElement>('button[data-r]');
    return el ? { r: Number(el.dataset.r), c: Number(el.dataset.c) } : null;
  };

  const onClick = (e: React.MouseEvent) => {
    const t = target(e);
    if (!t) return;
    setActive(t);
    onOpenDay(rows[t.r]!, dates[t.c]!);
  };

  const onKeyDown = (e: React.KeyboardEvent) => {
    const t = target(e);
    if (!t) return;
    const last = { r: rows.length - 1, c: dates.length - 1 };
    const moves: Record<string, [number, number]> = {
      ArrowUp: [Math.max(0, t.r - 1), t.c],
      ArrowDown: [Math.min(last.r, t.r + 1), t.c],
      ArrowLeft: [t.r, Math.max(0, t.c - 1)],
      ArrowRight: [t.r, Math.min(last.c, t.c + 1)],
      Home: [t.r, 0],
      End: [t.r, last.c],
    };
    const to = moves[e.key];
    if (!to) return;
    e.preventDefault();
    moveTo(to[0], to[1]);
  };

  // Spacer rows stand for the rows not rendered: before, between (the kept active row) and after.
  const columns = FIXED_COLUMNS + dates.length;
  const body: React.ReactNode[] = [];
  let end = 0;
  for (const item of items) {
    if (item.start > end)
      body.push(<Spacer key={`gap-${item.index}`} height={item.start - end} columns={columns} />);
    const row = rows[item.index]!;
    body.push(
      <HeatMapRow
        key={item.key}
        row={row}
        r={item.index}
        tabColumn={item.index === active.r ? active.c : -1}
        dates={dates}
        measure={virtualizer.measureElement}
        onOpenParticipant={onOpenParticipant}
      />,
    );
    end = item.end;
  }
  const total = virtualizer.getTotalSize();
  if (total > end) body.push(<Spacer key="gap-end" height={total - end} columns={columns} />);

  return (
    <div className={classes.scroll} ref={scrollRef}>
      <table
        ref={tableRef}
        className={classes.table}
        aria-rowcount={rows.length + 1}
        style={{ width: FIXED_WIDTH + WIDTHS.day * dates.length }}
        aria-label="Wear per participant and day"
        onClick={onClick}
        onKeyDown={onKeyDown}
      >
        <thead>
          <tr aria-rowindex={1}>
            <th scope="col" className={`${classes.code} ${classes.left}`} style={{ width: WIDTHS.code }}>
              Participant
            </th>
            <th scope="col" className={classes.left} style={{ width: WIDTHS.alerts }}>
              Open alerts
            </th>
            <th scope="col" className={classes.left} style={{ width: WIDTHS.sync }}>
              Last sync
            </th>
            <th scope="col" style={{ width: WIDTHS.battery }}>
              Battery
            </th>
            <th scope="col" className={classes.left} style={{ width: WIDTHS.link }}>
              Link
            </th>
            {dates.map((d) => (
              <th key={d} scope="col" aria-label={d} title={d} style={{ width: WIDTHS.day }}>
                {shortDate(d)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{body}</tbody>
      </table>
    </div>
  );
}

const HeatMapRow = memo(
  function HeatMapRow({
    row,
    r,
    tabColumn,
    dates,
    measure,
    onOpenParticipant,
  }: {
    row: HeatRow;
    r: number;
    /** The column of the cell in the tab order, -1 when it is in another row. */
    tabColumn: number;
    dates: string[];
    measure: (el: HTMLTableRowElement | null) => void;
    onOpenParticipant: (row: HeatRow) => void;
  }) {
    const p = row.participant;
    const alerts = p.openAlerts.map((k) => RULE_LABELS[k]).join(', ');
    const linkBad = p.linkStatus === 'errored' || p.linkStatus === 'revoked';
    return (
      <tr ref={measure} data-index={r} aria-rowindex={r + 2}>
        <th scope="row" className={classes.code}>
          <button type="button" className={classes.codeLink} onClick={() => onOpenParticipant(row)}>
            {row.code}
          </button>
        </th>
        <td className={`${classes.info} ${alerts ? classes.attention : ''}`}>{alerts || 'None'}</td>
        <td className={classes.info}>{syncText(p.lastSyncAt)}</td>
        <td className={classes.info} style={{ textAlign: 'right' }}>
          {p.batteryLevel === null ? '–' : `${p.batteryLevel} %`}
        </td>
        <td className={`${classes.info} ${linkBad ? classes.attention : ''}`}>{LINK_LABELS[p.linkStatus]}</td>
        {row.cells.map((cell, c) => (
          <td key={dates[c]}>
            <button
              type="button"
              className={`${classes.cell} ${classes[cell.tone]}`}
              data-r={r}
              data-c={c}
              tabIndex={c === tabColumn ? 0 : -1}
              aria-label={`${row.code}, ${dates[c]}: ${cell.meaning}`}
            >
              {cell.text}
            </button>
          </td>
        ))}
      </tr>
    );
  },
  // The same participant (React Query keeps unchanged objects across refetches) at the same place: no re-render.
  (a, b) =>
    a.row.participant === b.row.participant &&
    a.r === b.r &&
    a.tabColumn === b.tabColumn &&
    a.dates === b.dates &&
    a.measure === b.measure &&
    a.onOpenParticipant === b.onOpenParticipant,
);

/** Stands for rows not rendered: their height, hidden from assistive technology. */
function Spacer({ height, columns }: { height: number; columns: number }) {
  return (
    // biome-ignore lint/a11y/noAriaHiddenOnFocusable: an empty row (nothing in it takes focus), hidden so it is not counted as a participant
    <tr aria-hidden="true" className={classes.spacer} style={{ height }}>
      <td colSpan={columns} />
    </tr>
  );
}
