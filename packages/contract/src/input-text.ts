/*
 * Text in requests: no control characters. PostgreSQL refuses NUL in text
 * (a 500 before this rule), and no field of the spec wants the other C0/C1
 * characters. The server applies this to every string of every /api body,
 * query string and path (apps/server/src/http/input-guard.ts); the forms may
 * use the same function.
 */
import type { ApiRoute } from './api-access.js';

export const INPUT_MESSAGES = {
  controlCharacters: 'Text must not contain control characters.',
} as const;

const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;

/**
 * A control character: C0 (U+0000 to U+001F, NUL included), DEL (U+007F) or
 * C1 (U+0080 to U+009F). A multi-line field allows tab, line feed and
 * carriage return.
 */
export function hasControlCharacters(text: string, multiLine = false): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20) {
      if (multiLine && (c === TAB || c === LF || c === CR)) continue;
      return true;
    }
    if (c >= 0x7f && c <= 0x9f) return true;
  }
  return false;
}

/**
 * The multi-line text fields (top-level body keys) of each route: notes and
 * the contact message, where a person types several lines. Every other
 * string is single-line.
 */
export const MULTILINE_FIELDS: Partial<Record<ApiRoute, readonly string[]>> = {
  'POST /api/userTrials': ['trialNotes'],
  'PUT /api/userTrials': ['trialNotes'],
  'POST /api/trialParticipants': ['notes'],
  'PUT /api/participant': ['notes'],
  'POST /api/contactUs': ['message'],
};
