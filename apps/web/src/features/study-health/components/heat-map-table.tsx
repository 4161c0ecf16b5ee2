/*
 * The participants × days heat map (issue #23 §6) as one real <table>:
 * column headers for the dates, a row header per participant, and one
 * button per cell named "code, date: meaning". 1,000 × 14 cells render as
 * plain elements with no hook per cell: rows are memoized, clicks and the
 * arrow keys are handled once on the table (one cell is in the tab order,
 * the arrows move between cells, Enter opens the day).
 */
import { memo, startTransition, useCallback, useEffect, useRef, useState } from 'react';
import { type HeatRow, LINK_LABELS, RULE_LABELS } from '../heat-map';
import classes from './heat-map.module.css';

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'short', timeStyle: 'short' });
const syncText = (iso: string | null) => (iso ? dateTime.format(new Date(iso)) : 'Never');
/** The columns' widths (px): the table's layout is fixed, so 14,000 cells are not measured. */
const WIDTHS = { code: 96, alerts: 170, sync: 136, battery: 64, link: 72, day: 44 };
const FIXED_WIDTH = WIDTHS.code + WIDTHS.alerts + WIDTHS.sync + WIDTHS.battery + WIDTHS.link;

/** Column headers: MM-DD (the full date is the header's accessible name). */
const shortDate = (date: string) => date.slice(5);

interface Props {
  rows: HeatRow[];
  dates: string[];
  onOpenDay: (row: HeatRow, date: string) => void;
  onOpenParticipant: (row: HeatRow) => void;
}

/** Rows of the first paint; the rest follow in chunks, so 1,000 participants never block the page. */
const FIRST_ROWS = 60;
const CHUNK_ROWS = 250;

export function HeatMapTable({ rows, dates, onOpenDay, onOpenParticipant }: Props) {
  const tableRef = useRef<HTMLTableElement>(null);
  const [shown, setShown] = useState(FIRST_ROWS);
  useEffect(() => {
    if (shown >= rows.length) return;
    const t = setTimeout(() => startTransition(() => setShown((n) => n + CHUNK_ROWS)), 0);
    return () => clearTimeout(t);
  }, [shown, rows.length]);
  const active = useRef({ r: 0, c: 0 });

  const moveTo = useCallback((r: number, c: number) => {
    const cellAt = (r: number, c: number) =>
      tableRef.current?.querySelector<HTMLButtonElement>(`button[data-r="${r}"][data-c="${c}"]`) ?? null;
    const next = cellAt(r, c);
    if (!next) return;
    const prev = cellAt(active.current.r, active.current.c);
    if (prev) prev.tabIndex = -1;
    next.tabIndex = 0;
    next.focus();
    active.current = { r, c };
  }, []);

  const target = (e: React.SyntheticEvent) => {
    const el = (e.target as HTMLElement).closest<HTMLButtonElement>('button[data-r]');
    return el ? { r: Number(el.dataset.r), c: Number(el.dataset.c) } : null;
  };

  const onClick = (e: React.MouseEvent) => {
    const t = target(e);
    if (!t) return;
    active.current = { r: t.r, c: t.c };
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

  return (
    <div className={classes.scroll}>
      <table
        ref={tableRef}
        className={classes.table}
        style={{ width: FIXED_WIDTH + WIDTHS.day * dates.length }}
        aria-label="Wear per participant and day"
        onClick={onClick}
        onKeyDown={onKeyDown}
      >
        <thead>
          <tr>
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
        <tbody>
          {rows.slice(0, shown).map((row, r) => (
            <HeatMapRow
              key={row.participant.participantId}
              row={row}
              r={r}
              dates={dates}
              onOpenParticipant={onOpenParticipant}
            />
          ))}
        </tbody>
      </table>
    </div>
  );
}

const HeatMapRow = memo(
  function HeatMapRow({
    row,
    r,
    dates,
    onOpenParticipant,
  }: {
    row: HeatRow;
    r: number;
    dates: string[];
    onOpenParticipant: (row: HeatRow) => void;
  }) {
    const p = row.participant;
    const alerts = p.openAlerts.map((k) => RULE_LABELS[k]).join(', ');
    const linkBad = p.linkStatus === 'errored' || p.linkStatus === 'revoked';
    return (
      <tr>
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
              tabIndex={r === 0 && c === 0 ? 0 : -1}
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
    a.dates === b.dates &&
    a.onOpenParticipant === b.onOpenParticipant,
);
