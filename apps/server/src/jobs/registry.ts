/** Every background job the portal runs. Add a job here and both the server and `npm run worker` run it. */
import { auditAnchor } from './audit-anchor/job.js';
import { dataExport, dataExportExpiry, dataExportSweep } from './data-export/job.js';
import { deviceHealth, deviceHealthSchedule } from './device-health/job.js';
import { deviceSync, deviceSyncSchedule } from './device-sync/job.js';
import { expiredTokensCleanup } from './expired-tokens/job.js';
import { intradayPartitions } from './intraday-partitions/job.js';
import type { JobDefinition } from './job-definition.js';
import { redcapPush, redcapPushSchedule } from './redcap-push/job.js';
import { retentionPurge } from './retention-purge/job.js';
import { studyHealthDigest, studyHealthEvaluate } from './study-health/job.js';

export const JOBS: readonly JobDefinition[] = [
  expiredTokensCleanup,
  auditAnchor,
  deviceSyncSchedule,
  deviceSync,
  deviceHealthSchedule,
  deviceHealth,
  studyHealthEvaluate,
  studyHealthDigest,
  intradayPartitions,
  retentionPurge,
  dataExport,
  dataExportSweep,
  dataExportExpiry,
  redcapPushSchedule,
  redcapPush,
];
