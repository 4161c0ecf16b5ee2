import { useNavigate } from 'react-router';
import { useSession } from '../../lib/session/session-context';
import { resetSfa } from './api/sfa-api';

/** Reset Second Factor (profile menu): a new phone or a lost authenticator is replaced at once. */
export function useResetSecondFactor() {
  const { reload } = useSession();
  const navigate = useNavigate();
  return async () => {
    if (!window.confirm('Remove your authenticator and set up a new one?')) return;
    const { message } = await resetSfa();
    await reload();
    navigate(message === 'SFAIsNotSet' ? '/SFASetupPage' : '/');
  };
}
