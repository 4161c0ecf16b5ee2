import { Alert } from '@mantine/core';
import { SERVICE_UNAVAILABLE } from '@trialwear/contract';
import { useSyncExternalStore } from 'react';
import { serviceStatus } from '../lib/service-status';

/**
 * The one message while the portal cannot reach its database (issue 27): on
 * every page, over the content, gone by itself once the portal is ready again.
 * Reads wait meanwhile (api-client.ts), so the widgets show no error of their own.
 */
export function ServiceUnavailableBanner() {
  const unavailable = useSyncExternalStore(serviceStatus.subscribe, serviceStatus.isUnavailable);
  if (!unavailable) return null;
  return (
    <Alert
      role="alert"
      // A dark snackbar (white on near-black passes AA; white on orange does not), above the
      // footer so it covers neither the navigation nor the page's title.
      color="dark"
      variant="filled"
      title="Service unavailable"
      data-testid="service-unavailable"
      style={{
        position: 'fixed',
        bottom: 56,
        left: '50%',
        transform: 'translateX(-50%)',
        zIndex: 1000,
        width: 'min(560px, calc(100vw - 24px))',
        boxShadow: 'var(--mantine-shadow-md)',
      }}
    >
      {SERVICE_UNAVAILABLE.message}
    </Alert>
  );
}
