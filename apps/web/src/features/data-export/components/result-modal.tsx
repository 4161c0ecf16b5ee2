/*
 * The answer to an export request (admin §2, §8): a success modal saying the
 * export runs in the background and an email will follow, or a modal titled
 * 'Export Failed' with the §8 text of what went wrong.
 */
import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { EXPORT_MESSAGES } from '@trialwear/contract';

export type ExportOutcome = { ok: true; text: string } | { ok: false; text: string };

export function ResultModal({ outcome, onClose }: { outcome: ExportOutcome | null; onClose: () => void }) {
  return (
    <Modal
      opened={outcome !== null}
      onClose={onClose}
      title={outcome?.ok === false ? EXPORT_MESSAGES.failedTitle : EXPORT_MESSAGES.successTitle}
      centered
    >
      {outcome && (
        <Stack>
          {outcome.ok ? (
            <Text>{outcome.text}</Text>
          ) : (
            <Alert color="red" role="alert">
              {outcome.text}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button onClick={onClose} data-autofocus>
              OK
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
