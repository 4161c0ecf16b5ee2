import { Button, Group, Select, TextInput } from '@mantine/core';
import { useState } from 'react';
import {
  CATEGORY_LABELS,
  FITBIT_SUBJECTS,
  subjectsOf,
  TRACKER_CATEGORIES,
  type TrackerCategory,
} from '../fitbit-subjects';
import {
  PERIOD_LABELS,
  type Period,
  periodsFor,
  type TrackerFormErrors,
  validateTrackerForm,
} from '../periods';
import type { TrackerQuery } from '../tracker-query';

/**
 * The tracker query form (core §5): category, subject, period, custom dates
 * (no future dates, end not before start), with the spec's messages.
 * `categories` narrows the choice (the scale shows only body).
 */
export function TrackerQueryForm({
  value,
  today,
  categories = TRACKER_CATEGORIES,
  onSubmit,
}: {
  value: TrackerQuery;
  today: string;
  categories?: readonly TrackerCategory[];
  onSubmit: (q: TrackerQuery) => void;
}) {
  const [q, setQ] = useState<Omit<TrackerQuery, 'period'> & { period: Period | '' }>(value);
  const [errors, setErrors] = useState<TrackerFormErrors>({});
  const subjects = q.category === 'overview' ? [] : subjectsOf(q.category);
  const periods = periodsFor(q.subject ?? '');

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const found = validateTrackerForm(q, today);
    setErrors(found);
    if (Object.keys(found).length === 0 && q.period) onSubmit({ ...q, period: q.period });
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Tracker data query">
      <Group align="flex-start" wrap="wrap">
        <Select
          label="Category"
          w={170}
          value={q.category}
          data={categories.map((c) => ({ value: c, label: CATEGORY_LABELS[c] }))}
          onChange={(c) => setQ({ ...q, category: c as TrackerCategory, subject: null })}
        />
        {subjects.length > 0 && (
          <Select
            label="Subject"
            w={210}
            value={q.subject ?? 'all'}
            data={[
              { value: 'all', label: 'All of the category' },
              ...subjects.map((s) => ({ value: s, label: FITBIT_SUBJECTS[s].label })),
            ]}
            onChange={(s) => {
              const subject = s === 'all' || !s ? null : (s as keyof typeof FITBIT_SUBJECTS);
              const allowed = periodsFor(subject ?? '');
              setQ({ ...q, subject, period: q.period && allowed.includes(q.period) ? q.period : '' });
            }}
          />
        )}
        <Select
          label="Period"
          w={160}
          placeholder="Select a period"
          value={q.period || null}
          data={periods.map((p) => ({ value: p, label: PERIOD_LABELS[p] }))}
          onChange={(p) => setQ({ ...q, period: (p ?? '') as Period | '' })}
          error={errors.period}
        />
        {q.period === 'customDates' && (
          <>
            <TextInput
              type="date"
              label="Start date"
              w={170}
              max={today}
              value={q.startDate}
              onChange={(e) => setQ({ ...q, startDate: e.currentTarget.value })}
              error={errors.startDate}
            />
            <TextInput
              type="date"
              label="End date"
              w={170}
              max={today}
              min={q.startDate || undefined}
              value={q.endDate}
              onChange={(e) => setQ({ ...q, endDate: e.currentTarget.value })}
              error={errors.endDate}
            />
          </>
        )}
        <Button type="submit" mt={25}>
          Show data
        </Button>
      </Group>
    </form>
  );
}
