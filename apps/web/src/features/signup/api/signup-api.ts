import { useQuery } from '@tanstack/react-query';
import type {
  ActionResult,
  approveSignupSchema,
  participantSignupSchema,
  SignupInvitation,
  SignupResult,
  SysAdminTeam,
  signupFormSchema,
} from '@trialwear/contract';
import type { z } from 'zod';
import { api } from '../../../lib/api-client';

/** What the emailed sign-up link grants, with its token: the sign-up sends the token back. */
export type Invitation = SignupInvitation & { token: string };

export const validateSignupToken = (token: string) =>
  api.post<SignupInvitation>('/userSignUpPermission/signupRequestValidation', { token });

/** Email, team and role are the invitation's; the server checks them against the token. */
export const signUp = (
  form: z.input<typeof signupFormSchema>,
  invitation: Invitation,
  recaptchaResponse: string,
) =>
  api.post<SignupResult>('/users/signup', {
    ...form,
    token: invitation.token,
    email: invitation.email,
    teamId: invitation.teamId,
    teamName: invitation.teamName,
    role: invitation.role,
    recaptchaResponse,
  });

export const signUpParticipant = (form: z.input<typeof participantSignupSchema>) =>
  api.post<ActionResult>('/Participants/signup', form);

export const approveSignup = (form: z.input<typeof approveSignupSchema>, teamName: string) =>
  api.post<ActionResult>('/userSignUpPermission/approveSignUp', { ...form, teamName });

export const useSysAdminTeams = () =>
  useQuery({ queryKey: ['sysAdminTeams'], queryFn: () => api.get<SysAdminTeam[]>('/sysAdminTeamsData') });
