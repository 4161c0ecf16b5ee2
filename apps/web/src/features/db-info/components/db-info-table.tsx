/*
 * One database info table: the shared DataTable in server mode (50 rows a
 * page, the global filter applied by the server), columns as in admin §3.
 */
import { Alert } from '@mantine/core';
import type { ColumnDef } from '@tanstack/react-table';
import { DB_INFO_TABLES, type DbInfoCell, TABLE, type DbInfoTable as TableName } from '@trialwear/contract';
import { useMemo, useState } from 'react';
import { DataTable } from '../../../components/data-table/data-table';
import { displayableMessage } from '../../../lib/api-client';
import { useDbInfoPage } from '../api/db-info-api';

type Row = Record<string, DbInfoCell>;

const show = (v: DbInfoCell) => (v === null ? '' : typeof v === 'boolean' ? (v ? 'Yes' : 'No') : String(v));

export function DbInfoTable({ table }: { table: TableName }) {
  const [query, setQuery] = useState({ pageIndex: 0, globalFilter: '' });
  const page = useDbInfoPage(table, query.pageIndex, query.globalFilter);
  const { title, columns: names } = DB_INFO_TABLES[table];
  const columns = useMemo<ColumnDef<Row, unknown>[]>(
    () =>
      names.map((name) => ({
        id: name,
        header: name,
        accessorFn: (row: Row) => row[name] ?? null,
        cell: ({ getValue }) => show(getValue() as DbInfoCell),
      })),
    [names],
  );
  return (
    <>
      {page.isError && (
        <Alert color="red" mb="sm">
          {displayableMessage(page.error, `Failed to load ${title}`)}
        </Alert>
      )}
      <DataTable
        label={title}
        data={page.data?.rows ?? []}
        columns={columns}
        getRowId={(row) => names.map((n) => String(row[n])).join('|')}
        stateKey={`dbInfo.${table}`}
        pageSize={TABLE.adminPageSize}
        emptyText={page.isLoading ? 'Loading…' : 'No rows'}
        server={{ total: page.data?.total ?? 0, onQueryChange: setQuery }}
      />
    </>
  );
}
