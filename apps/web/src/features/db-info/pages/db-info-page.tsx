/*
 * Database info, 'Sys Director Info Page' (Sys_Admin; admin §2): the ten
 * read-only tables, one tab each, each loaded from its own endpoint only when
 * its tab is opened.
 */
import { Stack, Tabs, Text, Title } from '@mantine/core';
import {
  DB_INFO_TABLE_NAMES,
  DB_INFO_TABLES,
  DB_INFO_TITLE,
  SYS_ADMIN_SCOPE_NOTES,
  type DbInfoTable as TableName,
} from '@trialwear/contract';
import { useState } from 'react';
import { DbInfoTable } from '../components/db-info-table';

export default function DbInfoPage() {
  const [tab, setTab] = useState<TableName>('teams');
  return (
    <Stack>
      <Title order={2}>{DB_INFO_TITLE}</Title>
      <Text size="sm" fw={600}>
        {SYS_ADMIN_SCOPE_NOTES.dbInfo}
      </Text>
      <Text c="dimmed" size="sm">
        Read-only views of the portal's data, 50 rows a page. Participant emails and notes are left out where
        the team hides them; passwords, second-factor secrets and tokens are never shown.
      </Text>
      <Tabs value={tab} onChange={(v) => v && setTab(v as TableName)} keepMounted={false}>
        <Tabs.List>
          {DB_INFO_TABLE_NAMES.map((name) => (
            <Tabs.Tab key={name} value={name}>
              {DB_INFO_TABLES[name].title}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {DB_INFO_TABLE_NAMES.map((name) => (
          <Tabs.Panel key={name} value={name} pt="md">
            <DbInfoTable table={name} />
          </Tabs.Panel>
        ))}
      </Tabs>
    </Stack>
  );
}
