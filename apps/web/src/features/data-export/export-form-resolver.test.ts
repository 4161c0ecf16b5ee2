import { EXPORT_MESSAGES as M } from '@trialwear/contract';
import { describe, expect, it } from 'vitest';
import { ApiRequestError } from '../../lib/api-client';
import { EMPTY_EXPORT_FORM, type ExportFormValues, exportResolver } from './export-form-resolver';
import { dateFieldError, exportFailureText } from './export-format';

const today = '2026-11-24';
const valid: ExportFormValues = {
  trialId: 1,
  deviceId: 2,
  participantIds: [3],
  startDate: '2026-11-01',
  endDate: '2026-11-24',
  metrics: ['steps'],
  exportMode: 'single-tab',
  format: 'csv',
  deidentify: false,
  fileName: 'study',
};

/** What the form shows under each field after a submit of these values. */
async function shown(values: ExportFormValues) {
  const result = await exportResolver(today)(values, undefined, {
    fields: {},
    shouldUseNativeValidation: false,
  });
  return Object.fromEntries(
    Object.entries(result.errors).map(([field, e]) => [field, (e as { message?: string }).message]),
  );
}

describe('the export form: end date not in the future, reserved file names', () => {
  it('a valid request (ending today) shows nothing', async () => {
    expect(await shown(valid)).toEqual({});
  });
  it('an end after the browser’s today: the message under the end date', async () => {
    expect(await shown({ ...valid, endDate: '2026-11-25' })).toEqual({ endDate: M.endInFuture });
    expect(dateFieldError('2026-11-01', '2026-11-25', today)).toEqual({
      field: 'endDate',
      message: 'End date cannot be in the future.',
    });
  });
  it('with another field wrong too, both messages at once, each under its field', async () => {
    expect(await shown({ ...valid, metrics: [], endDate: '2026-12-01' })).toEqual({
      metrics: M.metricsRequired,
      endDate: M.endInFuture,
    });
  });
  it.each(['CON', 'nul.txt', 'Com1', 'LPT9.zip', 'aux .csv', 'PRN.', '.', '..'])(
    'file name %s: the reserved-name message under the file name',
    async (fileName) => {
      expect(await shown({ ...valid, fileName })).toEqual({ fileName: M.fileNameReserved });
    },
  );
  it('an empty submit still lists every §5 message (unchanged)', async () => {
    expect(await shown(EMPTY_EXPORT_FORM)).toEqual({
      trialId: M.trialRequired,
      deviceId: M.deviceRequired,
      participantIds: M.participantsRequired,
      startDate: M.datesRequired,
      metrics: M.metricsRequired,
      fileName: M.fileNameRequired,
    });
  });
  it("the server's 429 for a fourth waiting export is shown as it says", () => {
    const err = new ApiRequestError(429, {
      message: M.tooManyActive,
      displayToUser: true,
      reason: 'LimitReached',
      location: '',
      errors: [],
      user: null,
    } as never);
    expect(exportFailureText(err)).toBe(
      'You already have 3 exports waiting or running. Wait for one to finish, or cancel one, before requesting another.',
    );
  });
});
