/** Chart data: x in seconds (the participant's wall clock read as UTC), one value array per line. */
export interface LineData {
  x: number[];
  series: Array<{ label: string; values: Array<number | null> }>;
}

/**
 * Several participants on one chart (/OmronParticipantsDataPage): one line
 * per participant over the union of their times, null where a participant
 * has no reading (the chart skips the gap instead of inventing a value).
 */
export function participantLines(
  perParticipant: ReadonlyArray<{ label: string; points: ReadonlyArray<{ x: number; y: number }> }>,
): LineData {
  const xs = [...new Set(perParticipant.flatMap((p) => p.points.map((pt) => pt.x)))].sort((a, b) => a - b);
  const index = new Map(xs.map((x, i) => [x, i]));
  return {
    x: xs,
    series: perParticipant.map((p) => {
      const values: Array<number | null> = xs.map(() => null);
      for (const pt of p.points) values[index.get(pt.x)!] = pt.y;
      return { label: p.label, values };
    }),
  };
}

/**
 * Readings → one point per day (the mean, one decimal), at the day's start.
 * x is a wall clock read as UTC, so whole days are multiples of 86,400 s.
 * Several participants compared per day share their x values, so their lines
 * stay lines (the chart never bridges a gap, and different people's readings
 * are never at the same minute).
 */
export function dailyMeans(points: ReadonlyArray<{ x: number; y: number }>): Array<{ x: number; y: number }> {
  const days = new Map<number, { sum: number; n: number }>();
  for (const p of points) {
    const day = Math.floor(p.x / 86_400) * 86_400;
    const d = days.get(day) ?? { sum: 0, n: 0 };
    d.sum += p.y;
    d.n += 1;
    days.set(day, d);
  }
  return [...days.entries()]
    .sort(([a], [b]) => a - b)
    .map(([x, d]) => ({ x, y: Math.round((d.sum / d.n) * 10) / 10 }));
}
