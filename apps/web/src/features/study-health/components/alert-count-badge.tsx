import { Badge, VisuallyHidden } from '@mantine/core';
import { useAlertCount } from '../api/study-health-api';

/** The navigation's badge for staff: open study-health alerts of the trials they see; nothing at 0. */
export function AlertCountBadge() {
  const count = useAlertCount(true);
  const open = count.data?.open ?? 0;
  if (open === 0) return null;
  return (
    <Badge size="sm" color="red.8" variant="filled" ml={6} data-testid="alert-count">
      {open > 99 ? '99+' : open}
      <VisuallyHidden> open study health alert{open === 1 ? '' : 's'}</VisuallyHidden>
    </Badge>
  );
}
