/*
 * The scale form of /OmronParticipantDataPage (core §2, §5): its defaults and
 * its validation with the spec's messages, apart from the page so they are
 * unit-tested.
 */
import { OMRON_CATEGORIES, type OmronQuery, SCALE_FORM_MESSAGES, SCALE_LIMITS } from '@trialwear/contract';
import { daysAgo, localDate } from '../lib/local-dates';

export type OmronCategory = (typeof OMRON_CATEGORIES)[number];

/** The form's fields as the inputs hold them: empty string = nothing chosen. */
export interface OmronForm {
  category: string;
  startDate: string;
  limit: string;
  sortOrder: 'asc' | 'desc';
}

export const CATEGORY_LABEL: Record<OmronCategory, string> = {
  bloodPressure: 'Blood Pressure',
  weight: 'Weight',
};

export const LIMIT_OPTIONS = SCALE_LIMITS.map((n) => ({
  value: String(n),
  label: n === 0 ? 'All' : String(n),
}));

export const isOmronCategory = (c: unknown): c is OmronCategory =>
  typeof c === 'string' && (OMRON_CATEGORIES as readonly string[]).includes(c);

/**
 * Spec default: the category given (else blood pressure), start 7 days ago, all results, ascending;
 * a day asked for (a study-health cell's) starts the form on that day unless it is in the future.
 */
export function defaultOmronForm(category?: unknown, now: Date = new Date(), day?: string): OmronForm {
  const asked = day && /^\d{4}-\d{2}-\d{2}$/.test(day) && day <= localDate(now) ? day : undefined;
  return {
    category: isOmronCategory(category) ? category : 'bloodPressure',
    startDate: asked ?? daysAgo(7, now),
    limit: '0',
    sortOrder: 'asc',
  };
}

export type OmronFormErrors = Partial<Record<'category' | 'startDate' | 'limit', string>>;

/** The form's messages (core §5); empty when the form may be sent. */
export function validateOmronForm(form: OmronForm, now: Date = new Date()): OmronFormErrors {
  const errors: OmronFormErrors = {};
  if (!isOmronCategory(form.category)) errors.category = SCALE_FORM_MESSAGES.category;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(form.startDate)) errors.startDate = SCALE_FORM_MESSAGES.startDate;
  else if (form.startDate > localDate(now)) errors.startDate = SCALE_FORM_MESSAGES.future;
  if (!LIMIT_OPTIONS.some((o) => o.value === form.limit)) errors.limit = SCALE_FORM_MESSAGES.limit;
  return errors;
}

/** The request body's queryStr of a valid form. */
export function toOmronQuery(form: OmronForm): OmronQuery {
  return {
    category: form.category as OmronCategory,
    since: form.startDate,
    sortOrder: form.sortOrder,
    limit: Number(form.limit),
  };
}
