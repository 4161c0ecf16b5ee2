/** What the UI shows per role (core §6). The server enforces the same rules. */
import { ROLE_GROUPS, type Role, roleAllows } from '@trialwear/contract';

const can = (roles: readonly Role[]) => (role: Role | null | undefined) => roleAllows(role, roles);

export const canAddTrial = can(ROLE_GROUPS.admins);
export const canEditTrial = can(ROLE_GROUPS.writers);
export const canDeleteTrial = can(ROLE_GROUPS.admins);
export const canManageParticipants = can(ROLE_GROUPS.writers);
export const canManageTrialUsers = can(ROLE_GROUPS.admins);
export const canManageTokens = can(ROLE_GROUPS.admins);
/** A trial's export policy (decision 049): whether exports with real dates are allowed. */
export const canSetExportPolicy = can(ROLE_GROUPS.admins);
/** Study health (issue #23): Admins edit a trial's rules; Admins and Users acknowledge alerts and opt in to the digest. */
export const canEditHealthRules = can(ROLE_GROUPS.admins);
export const canAcknowledgeHealthAlerts = can(ROLE_GROUPS.writers);
/** The compliance report is a data export of the trial (core §6: none for Viewers; decision 034). */
export const canDownloadHealthReport = can(ROLE_GROUPS.writers);
