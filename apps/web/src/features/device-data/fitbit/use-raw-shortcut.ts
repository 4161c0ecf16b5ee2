import type { Trial } from '@trialwear/contract';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { useSession } from '../../../lib/session/session-context';
import type { DataParticipant } from './page-state';

/** Ctrl+Shift+Q opens /ParticipantRaw (core §2) for a Sys_Admin; for other roles the keys do nothing. */
export function useRawShortcut(participant: DataParticipant, trial: Trial | null) {
  const navigate = useNavigate();
  const { session } = useSession();
  const isSysAdmin = session.kind === 'authorized' && session.user.role === 'Sys_Admin';
  useEffect(() => {
    if (!isSysAdmin) return;
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey && e.shiftKey && e.key.toLowerCase() === 'q')) return;
      e.preventDefault();
      navigate('/ParticipantRaw', { state: { participant, trial, provider: 'fitbit' } });
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [isSysAdmin, navigate, participant, trial]);
}
