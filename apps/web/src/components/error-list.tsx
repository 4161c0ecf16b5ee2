import { List } from '@mantine/core';

/** A refused row's messages (bulk enrolment, REDCap enrolment): one item per field error. */
export function ErrorList({ errors }: { errors: readonly { path: string; message: string }[] }) {
  return (
    <List size="sm" c="red">
      {errors.map((e) => (
        <List.Item key={`${e.path}:${e.message}`}>{e.message}</List.Item>
      ))}
    </List>
  );
}
