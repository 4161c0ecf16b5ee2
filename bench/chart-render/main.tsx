/*
 * The page bench/chart-render.ts opens: the app's own TimeChart (not a copy)
 * with a one-day 1-second heart-rate series (86,400 points) as
 * /FitbitParticipant1DayData draws it. window.renderChart() mounts a fresh
 * chart and resolves with the ms from uPlot's construction to the end of its
 * first draw (TimeChart's onFirstDraw).
 */
import '@mantine/core/styles.css';
import { MantineProvider } from '@mantine/core';
import { createRoot, type Root } from 'react-dom/client';
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
declare global {
  interface Window {
    renderChart: () => Promise<number>;
  }
}
window.renderChart = () =>
  new Promise<number>((resolve) => {
    root?.unmount();
    const el = document.getElementById('root')!;
    root = createRoot(el);
    root.render(
      <MantineProvider>
        <TimeChart
          title="Heart rate, 1-second detail"
          x={x}
          series={series}
          y={{ unit: 'bpm' }}
          timeZone="America/New_York"
          granularity="time"
          height={320}
          onFirstDraw={resolve}
        />
      </MantineProvider>,
    );
  });
