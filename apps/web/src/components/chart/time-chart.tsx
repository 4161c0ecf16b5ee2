/*
 * TimeChart: the one chart of the app (issue #10 item 10), a React wrapper
 * around uPlot, which draws tens of thousands of points on a canvas in a few
 * ms. Every data page renders its series through it; colours, kinds and units
 * per subject come from `subjects.ts`.
 *
 * Props
 * - `x`: unix seconds, ascending (real instants; use `local-time.ts` to turn
 *   the provider's local dates/times into instants).
 * - `series` (memoize it: a new array rebuilds the chart): [{ label, values (one per x, null = gap), colour, kind:
 *   'bars' | 'line' | 'step' }] — usually `seriesFor(subject, values)`.
 * - `y`: { unit, min?, max? } the value axis (unit shown on it and in the tooltip).
 * - `timeZone`: IANA zone the x axis and tooltips are drawn in (the
 *   participant's; uPlot's tzDate), `granularity`: 'days' (dates only) or 'time'.
 * - `band`: optional shaded y range, e.g. the glucose target 70–180.
 * - `height` (px; width follows the container), `title`: the accessible name,
 *   `summary`: text for screen readers (default: range, count, min, max).
 * - Pan/zoom: drag across the plot to zoom into a time range; 'Reset zoom'
 *   returns to all data; the mouse wheel zooms around the pointer.
 * - `onFirstDraw(ms)`: time from construction to the end of the first draw
 *   (bench/chart-render).
 *
 * uPlot is imported only here, and this file only by lazily loaded pages, so
 * the login route never loads it.
 */
import { Box, Button, Group, Text, VisuallyHidden } from '@mantine/core';
import { useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import {
  buildOptions,
  type ChartAxis,
  type ChartBand,
  type ChartSeries,
  describeSeries,
  formatValue,
  fullXRange,
  toAlignedData,
} from './chart-options';
import { formatInstant } from './local-time';

const TIP_STYLE: Partial<CSSStyleDeclaration> = {
  display: 'none',
  position: 'absolute',
  pointerEvents: 'none',
  zIndex: '10',
  whiteSpace: 'pre',
  font: '12px/1.4 system-ui, sans-serif',
  background: 'rgba(255,255,255,0.95)',
  border: '1px solid #ced4da',
  borderRadius: '4px',
  padding: '4px 6px',
};

export interface TimeChartProps {
  x: readonly number[];
  series: readonly ChartSeries[];
  y: ChartAxis;
  timeZone: string;
  granularity?: 'days' | 'time';
  band?: ChartBand;
  height?: number;
  title: string;
  summary?: string;
  /** Show a colour legend under the chart (several series). */
  legend?: boolean;
  onFirstDraw?: (ms: number) => void;
}

export function TimeChart({
  x,
  series,
  y,
  timeZone,
  granularity = 'days',
  band,
  height = 260,
  title,
  summary,
  legend = series.length > 1,
  onFirstDraw,
}: TimeChartProps) {
  const host = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const [zoomed, setZoomed] = useState(false);
  const summaryId = useId();
  const firstDraw = useRef(onFirstDraw);
  firstDraw.current = onFirstDraw;

  // The screen readers' summary walks every value and formats two instants in the zone (a cold
  // Intl.DateTimeFormat): written after the first draw, not before it (issue #24: render to first
  // draw within 1.5x of bare uPlot), so the chart is never slower to appear for it.
  const [described, setDescribed] = useState('');
  useEffect(() => {
    if (summary !== undefined) return;
    const write = () =>
      setDescribed(describeSeries(x, series, y.unit, (ts) => formatInstant(ts, timeZone, granularity)));
    const idle = globalThis.requestIdleCallback;
    if (idle) {
      const handle = idle(write, { timeout: 500 });
      return () => globalThis.cancelIdleCallback(handle);
    }
    const timer = setTimeout(write, 0);
    return () => clearTimeout(timer);
  }, [summary, x, series, y.unit, timeZone, granularity]);
  const text = summary ?? described;

  const { unit: yUnit, min: yMin, max: yMax } = y;
  const { from: bandFrom, to: bandTo, colour: bandColour } = band ?? {};
  // y and band are compared by their values: a page passing `y={{ unit: 'bpm' }}` inline does not rebuild the chart.
  // A layout effect: uPlot reads the host's width and draws before the browser first paints the
  // chart's frame, not after a paint of an empty box (issue #24: render to first draw).
  // biome-ignore lint/correctness/useExhaustiveDependencies: y and band are read through the values listed
  useLayoutEffect(() => {
    const el = host.current;
    if (!el || x.length === 0) return;
    // The tooltip lives inside uPlot's overlay, outside React's tree (updated per mouse move, no re-render).
    const tip = document.createElement('div');
    tip.setAttribute('aria-hidden', 'true');
    tip.className = 'tw-chart-tip';
    Object.assign(tip.style, TIP_STYLE);
    const started = performance.now();
    let reported = false;
    let zoomedNow = false;
    const all = fullXRange(x, series);

    const hooks: uPlot.Hooks.Arrays = {
      drawClear: [
        (u) => {
          if (!band) return;
          // The band is painted under the series (drawClear runs before them).
          const top = u.valToPos(band.to, 'y', true);
          const bottom = u.valToPos(band.from, 'y', true);
          const { left, width } = u.bbox;
          u.ctx.save();
          u.ctx.fillStyle = band.colour ?? 'rgba(64, 192, 87, 0.12)';
          u.ctx.fillRect(left, top, width, bottom - top);
          u.ctx.restore();
        },
      ],
      draw: [
        () => {
          if (reported) return;
          reported = true;
          firstDraw.current?.(performance.now() - started);
        },
      ],
      setScale: [
        (u, key) => {
          if (key !== 'x') return;
          const { min, max } = u.scales.x ?? {};
          const now = min !== undefined && max !== undefined && (min > all.min || max < all.max);
          // Only a change reaches React: the first scale (all data) during construction is not one.
          if (now === zoomedNow) return;
          zoomedNow = now;
          setZoomed(now);
        },
      ],
      setCursor: [
        (u) => {
          const t = tip;
          const idx = u.cursor.idx;
          if (idx === null || idx === undefined || u.cursor.left === undefined || u.cursor.left < 0) {
            t.style.display = 'none';
            return;
          }
          const lines = [formatInstant(x[idx]!, timeZone, granularity)];
          for (const s of series) lines.push(`${s.label}: ${formatValue(s.values[idx], y.unit)}`);
          t.textContent = lines.join('\n');
          t.style.display = 'block';
          const left = u.cursor.left + u.bbox.left / devicePixelRatio;
          const overWidth = u.over.clientWidth;
          t.style.left = `${Math.min(left + 12, overWidth - 180)}px`;
          t.style.top = `${(u.cursor.top ?? 0) + 8}px`;
        },
      ],
    };

    const opts = buildOptions({
      width: el.clientWidth || 600,
      height,
      series,
      y,
      timeZone,
      band,
      xGranularity: granularity,
      xRange: all,
      hooks,
    });
    const u = new uPlot(opts, toAlignedData(x, series), el);
    plot.current = u;
    u.over.appendChild(tip);

    // Wheel zoom around the pointer (x only), clamped to the data.
    const onWheel = (e: WheelEvent) => {
      e.preventDefault();
      const { min, max } = u.scales.x ?? {};
      if (min === undefined || max === undefined) return;
      const at = u.posToVal(u.cursor.left ?? u.over.clientWidth / 2, 'x');
      const factor = e.deltaY < 0 ? 0.75 : 1 / 0.75;
      const nMin = Math.max(all.min, at - (at - min) * factor);
      const nMax = Math.min(all.max, at + (max - at) * factor);
      if (nMax - nMin < 1) return;
      u.setScale('x', { min: nMin, max: nMax });
    };
    u.over.addEventListener('wheel', onWheel, { passive: false });

    const resize = new ResizeObserver(() => {
      const w = el.clientWidth;
      if (w > 0 && w !== u.width) u.setSize({ width: w, height });
    });
    resize.observe(el);
    return () => {
      resize.disconnect();
      u.over.removeEventListener('wheel', onWheel);
      u.destroy();
      plot.current = null;
      setZoomed(false);
    };
  }, [x, series, yUnit, yMin, yMax, timeZone, granularity, bandFrom, bandTo, bandColour, height]);

  const resetZoom = () => {
    const u = plot.current;
    if (u && x.length) u.setScale('x', fullXRange(x, series));
  };

  return (
    <Box pos="relative">
      <Group justify="space-between" mb={4} wrap="nowrap">
        <Text size="sm" fw={600}>
          {title}
        </Text>
        <Button
          size="compact-xs"
          variant="default"
          onClick={resetZoom}
          disabled={!zoomed}
          aria-label={`Reset zoom of ${title}`}
        >
          Reset zoom
        </Button>
      </Group>
      {x.length === 0 ? (
        <Text size="sm" c="dimmed">
          No data to display
        </Text>
      ) : (
        <div
          role="img"
          aria-label={title}
          aria-describedby={summaryId}
          ref={host}
          style={{ width: '100%' }}
        />
      )}
      <VisuallyHidden id={summaryId}>{text}</VisuallyHidden>
      {legend && (
        <Group gap="md" mt={4} aria-hidden>
          {series.map((s) => (
            <Group key={s.label} gap={4}>
              <span style={{ width: 12, height: 12, background: s.colour, display: 'inline-block' }} />
              <Text size="xs">{s.label}</Text>
            </Group>
          ))}
        </Group>
      )}
    </Box>
  );
}
