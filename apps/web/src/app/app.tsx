import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { TIMINGS } from '@trialwear/contract';
import { RouterProvider } from 'react-router';
import { ServiceUnavailableBanner } from '../components/service-unavailable-banner';
import { SessionProvider } from '../lib/session/session-context';
import { router } from './router';
import { cssVariablesResolver, theme } from './theme';

const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } },
});

export function App() {
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
      <Notifications autoClose={TIMINGS.toastMs} position="top-right" />
      <ServiceUnavailableBanner />
      <QueryClientProvider client={queryClient}>
        <SessionProvider>
          <RouterProvider router={router} />
        </SessionProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
}
