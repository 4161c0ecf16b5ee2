/*
 * The page bench/chart-render.ts opens: the app's own TimeChart (not a copy)
 * with a one-day 1-second heart-rate series (86,400 points) as
 * /FitbitParticipant1DayData draws it, and beside it the same series in a
 * bare React + uPlot component (a ref, an effect constructing uPlot with the
 * same size, stroke and time zone; nothing else). window.renderChart() and
 * window.renderBare() mount a fresh one and resolve with { total, draw }: the
 * ms from React's render call to the end of uPlot's first draw, and (the
 * chart's) from uPlot's construction to that draw (TimeChart's onFirstDraw).
 */
import '@mantine/core/styles.css';
import { MantineProvider } from '@mantine/core';
import { type ReactNode, useEffect, useRef } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { seriesFor, TimeChart } from '../../apps/web/src/components/chart';

const POINTS = 86_400;
const start = Date.UTC(2026, 4, 12, 4) / 1000; // local midnight in New York (EDT)
const x = Array.from({ length: POINTS }, (_, i) => start + i);
// Deterministic, realistic shape: a day/night rhythm, activity bursts and beat-to-beat noise.
let seed = 42;
const rand = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
  return seed / 2_147_483_648;
};
const values = x.map((_, i) => {
  const h = i / 3600;
  const base = 62 + 14 * Math.max(0, Math.sin(((h - 6) / 24) * 2 * Math.PI));
  const burst = h > 17 && h < 17.75 ? 55 : 0;
  return Math.round(base + burst + (rand() - 0.5) * 6);
});
const series = [seriesFor('heartRateIntraday', values)];

let root: Root | null = null;
interface Drawn {
  total: number;
  draw: number;
}
declare global {
  interface Window {
    renderChart: () => Promise<Drawn>;
    renderBare: () => Promise<Drawn>;
  }
}

/** The floor: React, a div and uPlot drawing the same series in the same zone, as uPlot's docs build it. */
function BareChart({ onDraw }: { onDraw: (construction: number) => void }) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = host.current!;
    const started = performance.now();
    let drawn = false;
    const u = new uPlot(
      {
        width: el.clientWidth,
        height: 320,
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1e3), 'America/New_York'),
        series: [{}, { label: 'Heart rate', stroke: series[0]!.colour, width: 1.5 }],
        hooks: {
          draw: [
            () => {
              if (drawn) return;
              drawn = true;
              onDraw(performance.now() - started);
            },
          ],
        },
      },
      [x, values],
      el,
    );
    return () => u.destroy();
  }, [onDraw]);
  return <div ref={host} style={{ width: '100%' }} />;
}

function mount(render: (done: (draw: number) => void) => ReactNode): Promise<Drawn> {
  return new Promise<Drawn>((resolve) => {
    root?.unmount();
    const el = document.getElementById('root')!;
    root = createRoot(el);
    const start = performance.now();
    root.render(render((draw) => resolve({ total: performance.now() - start, draw })));
  });
}

window.renderChart = () =>
  mount((done) => (
    <MantineProvider>
      <TimeChart
        title="Heart rate, 1-second detail"
        x={x}
        series={series}
        y={{ unit: 'bpm' }}
        timeZone="America/New_York"
        granularity="time"
        height={320}
        onFirstDraw={done}
      />
    </MantineProvider>
  ));

window.renderBare = () =>
  mount((done) => (
    <MantineProvider>
      <BareChart onDraw={done} />
    </MantineProvider>
  ));
