/*
 * What a Fitbit data page receives as navigation state (like the other
 * participant pages): the participant (from Manage Participant, the trial
 * page or a device card, which knows only the id) and the trial. A link
 * opened directly (a study-health cell's, after a reload) names the
 * participant in the URL instead (?participantId=…&date=…); the data calls
 * are scoped on the server, so a participant the user may not see answers
 * the pages' not-found error.
 */
import type { ListedParticipant, Trial } from '@trialwear/contract';
import { useLocation, useSearchParams } from 'react-router';

export interface DataParticipant {
  id: number;
  /** Absent or a placeholder when the team hides emails: then never shown. */
  email?: string;
  code?: string | null;
}

export interface FitbitPageState {
  participant?: ListedParticipant | DataParticipant;
  participantId?: number;
  trial?: Trial;
  subject?: string;
  /** The day to open (YYYY-MM-DD), e.g. a study-health cell's; the one-day page shows it. */
  date?: string;
}

/** The participant and trial of the page, or null (the page then shows the spec's not-found text). */
export function useFitbitPageState(): { participant: DataParticipant; trial: Trial | null } | null {
  const state = useLocation().state as FitbitPageState | null;
  const [params] = useSearchParams();
  const p = state?.participant;
  const fromUrl = params.get('participantId');
  const id =
    p?.id ??
    state?.participantId ??
    (fromUrl && /^[1-9]\d{0,9}$/.test(fromUrl) ? Number(fromUrl) : undefined);
  if (id === undefined) return null;
  const code = p && 'participant_code' in p ? p.participant_code : (p as DataParticipant | undefined)?.code;
  return {
    participant: { id, email: shownEmail(p?.email), code: code ?? null },
    trial: state?.trial ?? null,
  };
}

/** A hidden email is replaced on the server by a placeholder (ARCHITECTURE): not shown, not sent. */
export const shownEmail = (email: string | undefined) =>
  email && !email.endsWith('@hidden.invalid') ? email : undefined;

/** The day the page was asked to open: the URL's ?date=YYYY-MM-DD, else the navigation state's. */
export function useAskedFitbitDate(): string | undefined {
  const [params] = useSearchParams();
  const state = useLocation().state as FitbitPageState | null;
  const asked = params.get('date') ?? state?.date;
  return asked && /^\d{4}-\d{2}-\d{2}$/.test(asked) ? asked : undefined;
}
