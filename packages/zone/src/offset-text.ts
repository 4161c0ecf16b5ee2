/* UTC offsets as text: '+HH:MM' / '-HH:MM' (ISO 8601, Omron's dateTimeUtcOffset, Dexcom's displayTime suffix). */

/** `+HH:MM` / `-HH:MM` for an offset in minutes. */
export function offsetText(min: number): string {
  const sign = min < 0 ? '-' : '+';
  const a = Math.abs(min);
  return `${sign}${String(Math.floor(a / 60)).padStart(2, '0')}:${String(a % 60).padStart(2, '0')}`;
}

/** `+HH:MM`, `-HH:MM` or `+HHMM` → minutes; null when it is not an offset. */
export function parseOffset(text: string): number | null {
  const m = /^([+-])(\d{2}):?(\d{2})$/.exec(text);
  if (!m) return null;
  return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
}
