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
