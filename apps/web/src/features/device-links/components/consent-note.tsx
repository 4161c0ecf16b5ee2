import { Alert, Anchor, Code } from '@mantine/core';
import { AUTHORIZATION_FAILED, type LinkStatus, type Provider } from '@trialwear/contract';
import { displayableMessage } from '../../../lib/api-client';
import { requestConsent } from '../api/device-links-api';

/** What a consent request (or a token action) answered, shown under its buttons. */
export interface ActionNote {
  ok: boolean;
  text: string;
  /** The consent link to hand over when the team keeps no participant emails. */
  link?: string;
}

/** Requests consent: emailed when the team keeps the participant's email, else a link to hand over. */
export async function requestConsentNote(provider: Provider, participantId: number): Promise<ActionNote> {
  try {
    const r = await requestConsent(provider, participantId);
    return r.emailed
      ? { ok: true, text: 'The consent link was emailed to the participant.' }
      : { ok: true, text: 'Give the participant this consent link:', link: r.link };
  } catch (err) {
    return { ok: false, text: displayableMessage(err, AUTHORIZATION_FAILED[provider]) };
  }
}

export function ActionNoteAlert({ note, onClose }: { note: ActionNote; onClose: () => void }) {
  return (
    <Alert color={note.ok ? 'teal' : 'red'} withCloseButton onClose={onClose}>
      {note.text}
      {note.link && (
        <Code block mt="xs">
          <Anchor href={note.link} target="_blank" rel="noreferrer">
            {note.link}
          </Anchor>
        </Code>
      )}
    </Alert>
  );
}

/** A link's state in words: authorized (since when), revoked or not authorized; '…' while loading. */
export function linkStatusText(status: LinkStatus | undefined): string {
  if (!status) return '…';
  if (status.status === 'authorized')
    return `Authorized${status.authorizationDate ? ` on ${status.authorizationDate.slice(0, 10)}` : ''}`;
  return status.status === 'revoked' ? 'Revoked' : 'Not authorized';
}
