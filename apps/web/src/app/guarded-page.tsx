import { Alert, Center, Loader } from '@mantine/core';
import { ACCESS_MESSAGES } from '@trialwear/contract';
import { lazy, type ReactNode, Suspense } from 'react';
import { Navigate, useLocation } from 'react-router';
import type { SessionState } from '../lib/session/session-api';
import { useSession } from '../lib/session/session-context';
import { decideRoute, type GuardSession } from './route-guard';

const NotFoundPage = lazy(() => import('../features/shell/pages/not-found-page'));

function toGuardSession(s: SessionState): GuardSession {
  if (s.kind === 'authorized') return { kind: 'authorized', role: s.user.role };
  if (s.kind === 'partial') return { kind: 'partial', status: s.status };
  return { kind: 'signedOut' };
}

export const pageLoader = (
  <Center py="xl">
    <Loader size="sm" />
  </Center>
);

/** Renders a page if the route guard allows it for the current session. */
export function GuardedPage({ path, page }: { path: string; page: ReactNode }) {
  const { session } = useSession();
  const location = useLocation();
  if (session.kind === 'loading') return pageLoader;
  const decision = decideRoute(path, toGuardSession(session));
  switch (decision.kind) {
    case 'redirect':
      return <Navigate to={decision.to} replace state={{ from: location.pathname }} />;
    case 'noRole':
      return <Alert color="red">{ACCESS_MESSAGES.noRole}</Alert>;
    case 'notFound':
      return (
        <Suspense fallback={pageLoader}>
          <NotFoundPage />
        </Suspense>
      );
    case 'allow':
      return <Suspense fallback={pageLoader}>{page}</Suspense>;
  }
}
