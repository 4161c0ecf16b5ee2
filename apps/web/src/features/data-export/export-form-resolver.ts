/*
 * The request form's values and its validation (admin §5 and ours: the end
 * date not in the future, reserved file names), without React: the
 * contract's form schema, plus its date rule whenever the schema left it
 * unchecked because another field was wrong, so one submit shows every
 * message, each under its field.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import {
  type BatchExportBody,
  batchExportFormSchema,
  type ExportFormat,
  type ExportMode,
} from '@trialwear/contract';
import type { Resolver } from 'react-hook-form';
import { dateFieldError } from './export-format';

export interface ExportFormValues {
  trialId: number | null;
  deviceId: number | null;
  participantIds: number[];
  startDate: string;
  endDate: string;
  metrics: string[];
  exportMode: ExportMode;
  format: ExportFormat;
  /** Shift each participant's dates (decision 049). */
  deidentify: boolean;
  fileName: string;
}

export const EMPTY_EXPORT_FORM: ExportFormValues = {
  trialId: null,
  deviceId: null,
  participantIds: [],
  startDate: '',
  endDate: '',
  metrics: [],
  exportMode: 'separate-tabs',
  format: 'csv',
  deidentify: false,
  fileName: '',
};

/** `today`: the browser's local date (YYYY-MM-DD), for the age of the start and the end not in the future. */
export function exportResolver(today: string): Resolver<ExportFormValues, unknown, BatchExportBody> {
  const zod = zodResolver(batchExportFormSchema(() => today)) as unknown as Resolver<
    ExportFormValues,
    unknown,
    BatchExportBody
  >;
  return async (values, context, options) => {
    const result = await zod(values, context, options);
    const date = dateFieldError(values.startDate, values.endDate, today);
    if (!date || result.errors.startDate || result.errors.endDate) return result;
    return {
      values: {},
      errors: { ...result.errors, [date.field]: { type: 'custom', message: date.message } },
    };
  };
}
