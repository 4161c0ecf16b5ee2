/*
 * The data table's two menus beside its search box: Columns (the columns a
 * user may hide, remembered per table) and Export (CSV or XLSX of the rows
 * the table shows, in its order, without the hidden columns; in server mode
 * every matching row, fetched from the server).
 */
import { Button, Checkbox, Menu } from '@mantine/core';
import type { Table } from '@tanstack/react-table';
import { type ExportColumn, exportRows } from './export-table';

export function ColumnsMenu<T>(props: {
  table: Table<T>;
  columns: Array<{ id: string; label: string }>;
  onToggle: (id: string, visible: boolean) => void;
}) {
  return (
    <Menu closeOnItemClick={false} shadow="md">
      <Menu.Target>
        <Button variant="default" size="xs">
          Columns
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {props.columns.map((c) => (
          <Menu.Item key={c.id}>
            <Checkbox
              label={c.label}
              checked={props.table.getColumn(c.id)?.getIsVisible() ?? true}
              onChange={(e) => props.onToggle(c.id, e.currentTarget.checked)}
            />
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}

/** `rows`: in server mode, every row matching the filter in the table's order (the export's rows). */
export interface TableExport<T> {
  fileBase: string;
  columns: ExportColumn[];
  rows?: () => Promise<T[]>;
}

export function ExportMenu<T>(props: { table: Table<T>; exportAs: TableExport<T>; serverMode: boolean }) {
  const { table, exportAs, serverMode } = props;
  return (
    <Menu shadow="md">
      <Menu.Target>
        <Button variant="default" size="xs">
          Export
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {(['csv', 'xlsx'] as const).map((format) => (
          <Menu.Item
            key={format}
            onClick={async () => {
              // Every matching row, not only this page: the server's in server mode.
              const rows =
                serverMode && exportAs.rows
                  ? await exportAs.rows()
                  : table.getSortedRowModel().rows.map((r) => r.original);
              exportRows(
                format,
                exportAs.fileBase,
                exportAs.columns.filter((c) => !c.id || table.getColumn(c.id)?.getIsVisible() !== false),
                rows,
              );
            }}
          >
            Export as {format.toUpperCase()}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
