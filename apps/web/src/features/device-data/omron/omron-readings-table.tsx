import type { ColumnDef } from '@tanstack/react-table';
import { type BloodPressureReading, kgToLb, type WeightReading } from '@trialwear/contract';
import { DataTable } from '../../../components/data-table/data-table';
import { showLocal } from '../lib/local-dates';

const bpColumns: ColumnDef<BloodPressureReading, unknown>[] = [
  { id: 'dateTimeLocal', header: 'Date and time (local)', accessorFn: (r) => showLocal(r.dateTimeLocal) },
  { id: 'systolic', header: 'Systolic (mmHg)', accessorKey: 'systolic' },
  { id: 'diastolic', header: 'Diastolic (mmHg)', accessorKey: 'diastolic' },
  { id: 'pulse', header: 'Pulse (bpm)', accessorFn: (r) => r.pulse ?? '—' },
];

const weightColumns: ColumnDef<WeightReading, unknown>[] = [
  { id: 'dateTimeLocal', header: 'Date and time (local)', accessorFn: (r) => showLocal(r.dateTimeLocal) },
  { id: 'weight', header: 'Weight (Lbs)', accessorFn: (r) => kgToLb(r.weight) },
];

/** The readings in the order the server answered (the form's sort order), paged by the shared table. */
export function BloodPressureTable({ rows }: { rows: BloodPressureReading[] }) {
  return (
    <DataTable
      data={rows}
      columns={bpColumns}
      getRowId={(r) => r.dateTime}
      stateKey="omron-blood-pressure"
      emptyText="No data available"
      globalFilter={false}
      label="Blood pressure readings"
      exportAs={{
        fileBase: 'blood-pressure',
        columns: [
          { header: 'dateTimeLocal', value: (r) => (r as BloodPressureReading).dateTimeLocal },
          { header: 'systolic', value: (r) => (r as BloodPressureReading).systolic },
          { header: 'diastolic', value: (r) => (r as BloodPressureReading).diastolic },
          { header: 'pulse', value: (r) => (r as BloodPressureReading).pulse },
        ],
      }}
    />
  );
}

export function WeightTable({ rows }: { rows: WeightReading[] }) {
  return (
    <DataTable
      data={rows}
      columns={weightColumns}
      getRowId={(r) => r.dateTime}
      stateKey="omron-weight"
      emptyText="No data available"
      globalFilter={false}
      label="Weight readings"
      exportAs={{
        fileBase: 'weight',
        columns: [
          { header: 'dateTimeLocal', value: (r) => (r as WeightReading).dateTimeLocal },
          { header: 'weight (Lbs)', value: (r) => kgToLb((r as WeightReading).weight) },
        ],
      }}
    />
  );
}
