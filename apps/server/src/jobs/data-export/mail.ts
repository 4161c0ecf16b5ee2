/*
 * The requester's email when an export completes or fails (issue #12): plain
 * text, the job's file name, dates and state, and an absolute link to
 * /DataExport — never the data, never a download link that would work
 * without signing in. Sent after the row's final state is committed; a mail
 * failure is logged and changes nothing (the panel shows the state anyway).
 */
import { exportJobParamsSchema } from '@trialwear/contract';
import type { AppContext } from '../../app-context.js';
import { findMailRecipient } from '../../features/users/repo.js';
import * as repo from './repo.js';

export async function mailOutcome(ctx: AppContext, jobId: string): Promise<void> {
  try {
    const row = await repo.jobById(ctx.db, jobId);
    if (!row?.user_id || (row.status !== 'completed' && row.status !== 'failed')) return;
    const user = await findMailRecipient(ctx.db, row.user_id);
    if (!user) return;
    const params = exportJobParamsSchema.safeParse(row.job_params);
    const name = params.success ? params.data.fileName : 'export';
    const range = params.success ? `${params.data.startDate} to ${params.data.endDate}` : '';
    const link = `${ctx.config.publicUrl}/DataExport`;
    const completed = row.status === 'completed';
    await ctx.mailer.send({
      to: user.email,
      subject: completed ? 'Your TrialWear data export is ready' : 'Your TrialWear data export failed',
      text: [
        `Hello ${user.first_name},`,
        '',
        completed
          ? `Your data export "${name}" (${range}) is ready. Download it from the Data Export page within 7 days; after that the file is deleted:`
          : `Your data export "${name}" (${range}) could not be completed. ${row.error_message ?? ''}`.trim(),
        '',
        link,
        '',
        completed ? '' : 'You can request the export again on the Data Export page.',
        `Export job ${row.id}`,
      ]
        .filter((l, i, all) => !(l === '' && all[i - 1] === ''))
        .join('\n'),
    });
  } catch (err) {
    console.error(`[trialwear] export ${jobId}: the outcome mail failed: ${(err as Error)?.message ?? err}`);
  }
}
