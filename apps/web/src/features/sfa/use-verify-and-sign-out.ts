import { SFA_RESULT_MESSAGES } from '@trialwear/contract';
import { useNavigate } from 'react-router';
import { useSession } from '../../lib/session/session-context';
import { verifyTotp } from './api/sfa-api';

/** The first code after setup turns the authenticator on; then the user signs in again (core §4). */
export function useVerifyAndSignOut() {
  const { logout } = useSession();
  const navigate = useNavigate();
  return async (code: string) => {
    await verifyTotp(code);
    await logout(SFA_RESULT_MESSAGES.authenticatorSet);
    navigate('/LoginPage', { replace: true });
  };
}
