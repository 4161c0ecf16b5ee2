import { OPEN_ROUTES, PARTICIPANT_ROUTES, PUBLIC_ROUTES, STAFF_ROUTES } from '@trialwear/contract';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { GuardedPage } from './guarded-page';
import { Layout } from './layout';
import { pageFor } from './page-registry';

/** Every route of both specs, each behind the guard; anything else is not found. */
const ALL_PATHS = [...PUBLIC_ROUTES, ...OPEN_ROUTES, ...PARTICIPANT_ROUTES, ...Object.keys(STAFF_ROUTES)];

const children: RouteObject[] = [
  ...ALL_PATHS.map((path) => ({ path, element: <GuardedPage path={path} page={pageFor(path)} /> })),
  { path: '*', element: <GuardedPage path="*" page={pageFor('*')} /> },
];

export const router = createBrowserRouter([{ element: <Layout />, children }]);
