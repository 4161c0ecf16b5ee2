/** What a Sys_Admin sees of the audit trail's integrity: the last verification (CLI or daily job). */
import type { AuditVerification } from '@trialwear/contract';
import type { AppContext } from '../../app-context.js';
import { latestVerification } from '../../audit/repo.js';

export async function lastVerification(ctx: AppContext): Promise<AuditVerification | null> {
  const v = await latestVerification(ctx.db);
  if (!v) return null;
  return {
    verifiedAt: new Date(v.verified_at).toISOString(),
    ok: v.ok,
    entries: Number(v.entries),
    headSeq: Number(v.head_seq),
    headHash: v.head_hash,
    firstBreak: (v.first_break as AuditVerification['firstBreak']) ?? null,
    source: v.source,
  };
}
