/*
 * "Select all" and "Clear" under a picker of the export form (participants,
 * metrics); "Clear" only while something is selected. The accessible names
 * say what they select ("Select all participants").
 */
import { Button, Group } from '@mantine/core';

export function SelectAllClear({
  what,
  anySelected,
  onSelectAll,
  onClear,
}: {
  /** What is selected, plural: 'participants', 'metrics'. */
  what: string;
  anySelected: boolean;
  onSelectAll: () => void;
  onClear: () => void;
}) {
  return (
    <Group gap="xs">
      <Button variant="subtle" size="compact-sm" aria-label={`Select all ${what}`} onClick={onSelectAll}>
        Select all
      </Button>
      {anySelected && (
        <Button variant="subtle" size="compact-sm" aria-label={`Clear ${what}`} onClick={onClear}>
          Clear
        </Button>
      )}
    </Group>
  );
}
