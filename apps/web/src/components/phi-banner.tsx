import { Alert } from '@mantine/core';

/** Shown on participant dialogs (core §1). */
export function PhiBanner() {
  return (
    <Alert color="orange" variant="light" title="No personal health information">
      Entering personal health information is strictly prohibited. All data must be anonymized and
      de-identified.
    </Alert>
  );
}
