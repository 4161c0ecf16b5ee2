/** The add-participant error texts of core §8, chosen from the real server answer. */
import { PARTICIPANT_MESSAGES, REASON_LABELS } from '@trialwear/contract';
import { ApiRequestError, NetworkError } from '../../lib/api-client';

export function addParticipantError(err: unknown): string {
  if (err instanceof NetworkError) return PARTICIPANT_MESSAGES.network;
  if (!(err instanceof ApiRequestError)) return PARTICIPANT_MESSAGES.other;
  const reason = err.body?.reason ?? '';
  if (reason === 'EmailTaken') return PARTICIPANT_MESSAGES.emailTaken;
  if (err.status === 409 || reason === 'CodeTaken') return PARTICIPANT_MESSAGES.codeTaken;
  if (reason === 'LimitReached') return PARTICIPANT_MESSAGES.limitReached;
  if (err.status === 400) {
    const label = REASON_LABELS[reason];
    return label && err.body?.displayToUser
      ? `${label}: ${err.body.message}`
      : PARTICIPANT_MESSAGES.validation;
  }
  if (err.status >= 500)
    return reason === 'DBError'
      ? `${REASON_LABELS.DBError}: ${PARTICIPANT_MESSAGES.server}`
      : PARTICIPANT_MESSAGES.server;
  return err.body?.displayToUser ? err.body.message : PARTICIPANT_MESSAGES.other;
}

/** Code change failures (core §8 "Edit participant"). */
export function codeChangeError(err: unknown, code: string): string {
  if (err instanceof ApiRequestError) {
    if (err.status === 409) return `Participant code ${code} is already taken in this trial.`;
    if (err.status === 404) return PARTICIPANT_MESSAGES.codeNotFound;
    if (err.status === 400) return PARTICIPANT_MESSAGES.codeInvalid;
    if (err.body?.displayToUser) return `Code change failed: ${err.body.message}`;
  }
  return PARTICIPANT_MESSAGES.updatedButCodeFailed;
}
