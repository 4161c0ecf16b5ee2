/**
 * A trial's code is the prefix of its participants' codes: the initials of
 * the trial name (up to 3 letters) and the trial number's letters and digits,
 * e.g. "Sleep and Activity Study" #001 → "SAS001". Upper case, at most 16.
 */
const MINOR_WORDS = new Set(['a', 'an', 'and', 'at', 'for', 'in', 'of', 'on', 'or', 'the', 'to', 'with']);

export function proposeTrialCode(trialName: string, trialNumber: string): string {
  const initials = trialName
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w && !MINOR_WORDS.has(w.toLowerCase()))
    .map((w) => w[0]!.toUpperCase())
    .join('')
    .slice(0, 3);
  const number = trialNumber.toUpperCase().replace(/[^A-Z0-9]/g, '');
  const code = `${initials}${number}`.slice(0, 16);
  return code || 'T';
}

/** The first of code, code2, code3… not yet used. */
export async function uniqueTrialCode(
  base: string,
  exists: (code: string) => Promise<boolean>,
): Promise<string> {
  if (!(await exists(base))) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base.slice(0, 16 - String(n).length)}${n}`;
    if (!(await exists(candidate))) return candidate;
  }
}
