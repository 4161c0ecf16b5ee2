/** What the UI shows per role (core §6). The server enforces the same rules. */
import { type Role, roleAllows } from '@trialwear/contract';

const can = (roles: readonly Role[]) => (role: Role | null | undefined) => roleAllows(role, roles);

export const canAddTrial = can(['Admin']);
export const canEditTrial = can(['Admin', 'User']);
export const canDeleteTrial = can(['Admin']);
export const canManageParticipants = can(['Admin', 'User']);
export const canManageTrialUsers = can(['Admin']);
