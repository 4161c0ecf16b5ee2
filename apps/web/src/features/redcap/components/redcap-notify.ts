/*
 * What the REDCap section's panels share: the failure text, the success
 * notification, a refused save's field errors, counted words.
 */
import { notifications } from '@mantine/notifications';
import { ApiRequestError } from '../../../lib/api-client';

export const FAILED = 'The request failed. Please try again.';

/** A success notification (its close button is named by the theme: axe button-name). */
export const done = (message: string) => notifications.show({ color: 'teal', message });

/** The field errors of a refused save, by path ('fieldMap.steps', 'token' …). */
export function fieldErrors(err: unknown): Record<string, string> {
  if (!(err instanceof ApiRequestError)) return {};
  return Object.fromEntries((err.body?.errors ?? []).map((e) => [e.path, e.message]));
}

/** "1 record", "2 records". */
export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
