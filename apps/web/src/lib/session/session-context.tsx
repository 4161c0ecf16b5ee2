/*
 * The signed-in user for the whole app. Restores the session on load,
 * refreshes it on load and every 15 minutes (a refresh failure signs out with
 * the server's displayable message), and offers login/logout.
 */

import { useQueryClient } from '@tanstack/react-query';
import { type AuthResponse, LIMITS } from '@trialwear/contract';
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { ApiRequestError, displayableMessage } from '../api-client';
import {
  fetchSession,
  logout as logoutCall,
  refreshSession,
  type SessionState,
  stateFromAuth,
} from './session-api';

interface SessionContextValue {
  session: SessionState;
  /** A message to show on the login page after a logout (e.g. why). */
  logoutMessage: string | null;
  signedIn: (res: AuthResponse) => void;
  logout: (message?: string) => Promise<void>;
  reload: () => Promise<void>;
}

const SessionContext = createContext<SessionContextValue | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const [session, setSession] = useState<SessionState>({ kind: 'loading' });
  const [logoutMessage, setLogoutMessage] = useState<string | null>(null);
  const justSignedIn = useRef(false);
  const queryClient = useQueryClient();

  const reload = useCallback(async () => setSession(await fetchSession()), []);

  useEffect(() => {
    void reload();
  }, [reload]);

  const logout = useCallback(
    async (message?: string) => {
      await logoutCall().catch(() => {}); // the local sign-out happens whatever the server says
      queryClient.clear();
      setLogoutMessage(message ?? null);
      setSession({ kind: 'signedOut' });
    },
    [queryClient],
  );

  const signedIn = useCallback((res: AuthResponse) => {
    justSignedIn.current = true;
    setLogoutMessage(null);
    setSession(stateFromAuth(res));
  }, []);

  // Refresh on load (unless the session was just created) and every 15 minutes.
  const authorized = session.kind === 'authorized';
  useEffect(() => {
    if (!authorized) return;
    const refresh = () =>
      refreshSession().catch((err) => {
        // Only the server's refusal ends the session; a request cut off by navigation or a
        // network blip must not sign the user out (the next refresh tries again).
        if (err instanceof ApiRequestError)
          void logout(displayableMessage(err, 'Your session has ended. Please sign in again.'));
      });
    if (!justSignedIn.current) void refresh();
    justSignedIn.current = false;
    const timer = setInterval(refresh, LIMITS.sessionRefreshMs);
    return () => clearInterval(timer);
  }, [authorized, logout]);

  const value = useMemo(
    () => ({ session, logoutMessage, signedIn, logout, reload }),
    [session, logoutMessage, signedIn, logout, reload],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionContextValue {
  const ctx = useContext(SessionContext);
  if (!ctx) throw new Error('useSession outside SessionProvider');
  return ctx;
}
