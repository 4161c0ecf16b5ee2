/**
 * Export storage keys are relative names such as `exports/42.zip`: letters,
 * digits, `._-` and `/`, no `..`, never a temporary file's name.
 */
const KEY = /^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/;
export const TEMP_SUFFIX = '.partial';

export function checkExportKey(key: string): string {
  if (!KEY.test(key) || key.split('/').some((s) => s === '.' || s === '..') || key.endsWith(TEMP_SUFFIX))
    throw new Error(`invalid export storage key: ${JSON.stringify(key)}`);
  return key;
}
