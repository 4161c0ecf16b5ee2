import { z } from 'zod';

/** The last audit-chain verification, for the Sys_Admin page. */
export const auditVerificationSchema = z.object({
  verifiedAt: z.string(),
  ok: z.boolean(),
  entries: z.number(),
  headSeq: z.number(),
  headHash: z.string(),
  firstBreak: z
    .object({
      seq: z.number(),
      id: z.number().nullable(),
      reason: z.enum([
        'missing_entry',
        'prev_hash_mismatch',
        'hash_mismatch',
        'head_mismatch',
        'anchor_mismatch',
      ]),
    })
    .nullable(),
  source: z.enum(['cli', 'job']),
});
export type AuditVerification = z.infer<typeof auditVerificationSchema>;

/** GET /api/audit/verification: null before the first verification. */
export const auditVerificationResultSchema = z.object({ verification: auditVerificationSchema.nullable() });
export type AuditVerificationResult = z.infer<typeof auditVerificationResultSchema>;
