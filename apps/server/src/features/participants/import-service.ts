/*
 * Bulk enrolment (issue #25 item 4, decision 045). Preview and apply run the
 * same evaluation — each row through the add-participant call's schema and
 * rules (new-participants.ts), under the team's lock — so a row's verdict is
 * the message the add call would give. The preview answers a digest of its
 * verdicts; the apply, sent the same file and that digest, evaluates again in
 * its transaction and creates the valid rows only if the verdicts are still
 * the same: otherwise (a participant added meanwhile, the limit changed) it
 * creates nothing and says so. The inserts, one audit row per participant
 * (as the add call writes) and one for the import stand or fall together.
 */
import { createHash } from 'node:crypto';
import {
  addParticipantSchema,
  codeSuffixSchema,
  GENDERS,
  hasControlCharacters,
  IMPORT_MESSAGES,
  type ImportApplyResult,
  type ImportFormat,
  type ImportPreview,
  type ImportRowVerdict,
  INPUT_MESSAGES,
  PARTICIPANT_IMPORT_COLUMNS,
} from '@trialwear/contract';
import { AppError } from '../../access/errors.js';
import { type Actor, teamScope } from '../../access/index.js';
import type { AppContext } from '../../app-context.js';
import { recordAudits } from '../../audit/audit-log.js';
import { inTransaction } from '../../db/transaction.js';
import { lockTeamForLimits } from '../teams/service.js';
import { requireVisibleTrial } from '../trials/service.js';
import { ImportFileError, loadExcelJS, type ParticipantFile, readParticipantFile } from './import-file.js';
import {
  checkNewParticipants,
  insertNewParticipants,
  type NewParticipantInput,
  type Refusal,
} from './new-participants.js';
import * as repo from './repo.js';

/** The upload, read only once the trial is known to be the caller's (a stranger's upload is never parsed). */
export type ReadUpload = () => Promise<{ file: Buffer | null; fields: Record<string, string> }>;

const fileError = (message: string) =>
  new AppError(400, message, 'ValidationError', {
    displayToUser: true,
    errors: [{ path: 'file', message }],
  });

async function readFile(
  upload: ReadUpload,
): Promise<{ bytes: Buffer; file: ParticipantFile; fields: Record<string, string> }> {
  const { file, fields } = await upload();
  if (!file) throw fileError(IMPORT_MESSAGES.noFile);
  try {
    return { bytes: file, file: await readParticipantFile(file), fields };
  } catch (err) {
    if (err instanceof ImportFileError) throw fileError(err.message);
    throw err;
  }
}

/** A cell's gender as the add call takes it: its spelling, whatever the case; empty is None. */
const gender = (text: string) => {
  const t = text.trim();
  return t === '' ? 'None' : (GENDERS.find((g) => g.toLowerCase() === t.toLowerCase()) ?? t);
};

/** A file row as the add call's input: the schema's refusals, and the same control-character rule as every request. */
function rowInput(
  trialId: number,
  r: ParticipantFile['rows'][number],
): NewParticipantInput & { earlier: Refusal[] } {
  const earlier: Refusal[] = [];
  const refuse = (path: string, message: string) =>
    earlier.push({ status: 400, reason: 'ValidationError', path, message });
  if (r.extraCells) refuse('', IMPORT_MESSAGES.extraCells);
  for (const column of PARTICIPANT_IMPORT_COLUMNS)
    if (hasControlCharacters(r.values[column], column === 'notes'))
      refuse(column, INPUT_MESSAGES.controlCharacters);
  const parsed = addParticipantSchema.safeParse({
    trialId,
    codeSuffix: r.values.codeSuffix,
    email: r.values.email,
    gender: gender(r.values.gender),
    age: r.values.age,
    notes: r.values.notes,
  });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) refuse(issue.path.join('.'), issue.message);
    // Refused already; its code (when the suffix itself is fine) is still shown, and checked against the others.
    const suffix = codeSuffixSchema.safeParse(r.values.codeSuffix);
    const codeSuffix = suffix.success ? suffix.data : null;
    return { gender: 'None', age: null, email: r.values.email, notes: '', codeSuffix, row: r.row, earlier };
  }
  const { gender: g, age, email, notes, codeSuffix } = parsed.data;
  return { gender: g, age, email, notes, codeSuffix, row: r.row, earlier };
}

/** Every row's verdict, under the team's lock, in the caller's transaction. */
async function evaluate(tx: AppContext, actor: Actor, trialId: number, file: ParticipantFile) {
  const team = await lockTeamForLimits(tx, teamScope(actor));
  const { scope, row: trial } = await requireVisibleTrial(tx, actor, trialId);
  const inputs = file.rows.map((r) => rowInput(trialId, r));
  const scopes = { team: teamScope(actor), trial: scope, trialCode: trial.trial_code };
  const checked = await checkNewParticipants(tx.db, scopes, team, inputs);
  const verdicts: ImportRowVerdict[] = file.rows.map((r, i) => ({
    row: r.row,
    values: r.values,
    valid: checked[i]!.refusals.length === 0,
    participantCode: checked[i]!.values.code,
    errors: checked[i]!.refusals.map(({ path, message }) => ({ path, message })),
  }));
  return { scope, team, checked, verdicts };
}

/** What the apply compares: the trial, the file's bytes and every row's verdict. */
function digestOf(trialId: number, bytes: Buffer, verdicts: ImportRowVerdict[]) {
  const fileHash = createHash('sha256').update(bytes).digest('hex');
  const shown = verdicts.map((v) => [v.row, v.valid, v.participantCode, v.errors.map((e) => e.message)]);
  return createHash('sha256')
    .update(JSON.stringify([trialId, fileHash, shown]))
    .digest('hex');
}

export async function previewImport(
  ctx: AppContext,
  actor: Actor,
  trialId: number,
  upload: ReadUpload,
): Promise<ImportPreview> {
  // The trial first: a stranger's (or another trial's) id is the same 404 before the upload is read.
  await requireVisibleTrial(ctx, actor, trialId);
  const { bytes, file } = await readFile(upload);
  return inTransaction(ctx, async (tx) => {
    const { team, verdicts } = await evaluate(tx, actor, trialId, file);
    const validCount = verdicts.filter((v) => v.valid).length;
    return {
      format: file.format,
      rows: verdicts,
      validCount,
      refusedCount: verdicts.length - validCount,
      maxParticipants: team.max_participants,
      teamParticipants: await repo.countTeamParticipants(tx.db, teamScope(actor)),
      previewDigest: digestOf(trialId, bytes, verdicts),
    };
  });
}

export async function applyImport(
  ctx: AppContext,
  actor: Actor,
  trialId: number,
  upload: ReadUpload,
): Promise<ImportApplyResult> {
  await requireVisibleTrial(ctx, actor, trialId);
  const { bytes, file, fields } = await readFile(upload);
  const expected = fields.previewDigest;
  if (!expected)
    throw new AppError(400, IMPORT_MESSAGES.noPreview, 'ValidationError', { displayToUser: true });
  return inTransaction(ctx, async (tx) => {
    const { scope, checked, verdicts } = await evaluate(tx, actor, trialId, file);
    if (digestOf(trialId, bytes, verdicts) !== expected) {
      // Which rows changed is not known (the preview is the client's); the rows now refused are.
      const refused = verdicts.filter((v) => !v.valid);
      throw new AppError(409, IMPORT_MESSAGES.changed(refused.length), 'Conflict', {
        displayToUser: true,
        errors: refused.flatMap((v) =>
          v.errors.map((e) => ({ path: `row ${v.row}: ${e.path}`, message: e.message })),
        ),
      });
    }
    const valid = checked.flatMap((c, i) =>
      c.refusals.length ? [] : [{ ...c.values, row: verdicts[i]!.row }],
    );
    const created = await insertNewParticipants(tx.db, actor, scope, trialId, valid, () => ({
      import: true,
    }));
    const who = { userId: actor.userId, teamId: actor.teamId, requestId: actor.requestId, ip: actor.ip };
    await recordAudits(tx.db, [
      {
        ...who,
        action: 'participant.import',
        entityType: 'trial',
        entityId: trialId,
        after: {
          format: file.format,
          rows: verdicts.length,
          created: created.length,
          refusedRows: verdicts.filter((v) => !v.valid).map((v) => v.row),
        },
      },
    ]);
    return {
      created,
      refusedCount: verdicts.length - created.length,
      message: IMPORT_MESSAGES.created(created.length),
    };
  });
}

/** The template: the header row alone, as CSV or as XLSX. */
export async function importTemplate(ctx: AppContext, actor: Actor, trialId: number, format: ImportFormat) {
  await requireVisibleTrial(ctx, actor, trialId);
  const fileName = `participants-template.${format}`;
  if (format === 'csv')
    return {
      fileName,
      contentType: 'text/csv; charset=utf-8',
      body: Buffer.from(`${PARTICIPANT_IMPORT_COLUMNS.join(',')}\r\n`),
    };
  const ExcelJS = await loadExcelJS();
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Participants');
  sheet.addRow([...PARTICIPANT_IMPORT_COLUMNS]);
  sheet.getRow(1).font = { bold: true };
  // Text cells, so a spreadsheet keeps a suffix's leading zeros (007) and does not turn an email into a link.
  for (const [i] of PARTICIPANT_IMPORT_COLUMNS.entries()) {
    const column = sheet.getColumn(i + 1);
    column.numFmt = '@';
    column.width = i === 1 || i === 4 ? 32 : 14;
  }
  return {
    fileName,
    contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    body: Buffer.from(await workbook.xlsx.writeBuffer()),
  };
}
