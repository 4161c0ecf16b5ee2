import { Checkbox, createTheme, MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { TIMINGS } from '@trialwear/contract';
import { RouterProvider } from 'react-router';
import { SessionProvider } from '../lib/session/session-context';
import { router } from './router';

const theme = createTheme({
  primaryColor: 'teal',
  fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  defaultRadius: 'md',
  // The default radius would make a checkbox look like a radio button: checkboxes stay square.
  components: { Checkbox: Checkbox.extend({ defaultProps: { radius: 'xs' } }) },
});

const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } },
});

export function App() {
  return (
    <MantineProvider theme={theme}>
      <Notifications autoClose={TIMINGS.toastMs} position="top-right" />
      <QueryClientProvider client={queryClient}>
        <SessionProvider>
          <RouterProvider router={router} />
        </SessionProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
}
