/*
 * The one table of the app (trial page, admin and database-info tables):
 * global filter (debounced), sorting, paging, optional multi-row selection
 * with a maximum, user-hideable columns, CSV/XLSX export of what it shows.
 * State is remembered per `stateKey` (see table-state.ts). With `server`,
 * paging and the filter are the server's (one page of rows at a time), and
 * sorting and the page size too where the server offers them; a selection
 * then holds rows of every page seen (decision 040).
 */
import { Alert, Checkbox, Group, Pagination, Select, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import {
  type ColumnDef,
  flexRender,
  getCoreRowModel,
  getFilteredRowModel,
  getPaginationRowModel,
  getSortedRowModel,
  type RowSelectionState,
  type SortingState,
  useReactTable,
  type VisibilityState,
} from '@tanstack/react-table';
import { TABLE } from '@trialwear/contract';
import { type ReactNode, useEffect, useMemo, useRef, useState } from 'react';
import { ColumnsMenu, ExportMenu, type TableExport } from './table-menus';
import { loadHiddenColumns, loadTableState, saveHiddenColumns, saveTableState } from './table-state';
import { useOverflows } from './use-overflows';

/** What a server-mode table asks its server for: the page, its size, the (debounced) filter and the sort. */
export interface ServerTableQuery {
  pageIndex: number;
  pageSize: number;
  globalFilter: string;
  sorting: SortingState;
}

export interface DataTableProps<T> {
  data: T[];
  columns: ColumnDef<T, unknown>[];
  getRowId: (row: T) => string;
  /** Remembers filter, page, size and sort for the session under this key. */
  stateKey: string;
  emptyText: string;
  pageSize?: number;
  globalFilter?: boolean;
  /** Multi-row selection; omit for none. */
  selection?: { max?: number; onChange: (rows: T[]) => void };
  /** Column ids the user may hide (remembered in localStorage). */
  hideableColumns?: Array<{ id: string; label: string }>;
  exportAs?: TableExport<T>;
  toolbar?: ReactNode;
  label: string;
  /**
   * Paging and filtering done by the server: `data` is the current page,
   * `total` the rows matching the filter. The table calls `onQueryChange`
   * with what it shows. Unless `sortable`, sorting is the server's order
   * (one column otherwise); unless `pageSizes`, the page size is fixed
   * (`pageSize`; the database info tables).
   */
  server?: {
    total: number;
    onQueryChange: (q: ServerTableQuery) => void;
    sortable?: boolean;
    pageSizes?: boolean;
  };
}

const CONTROL_LABELS = { first: 'First', previous: 'Previous', next: 'Next', last: 'Last' } as const;

export function DataTable<T>(props: DataTableProps<T>) {
  const [scrollBox, overflows] = useOverflows<HTMLDivElement>();
  const { data, stateKey, selection } = props;
  const maxSelection = selection?.max ?? TABLE.sharedSelectionMax;
  const initial = useMemo(
    () => loadTableState(stateKey, props.pageSize ?? TABLE.defaultPageSize),
    [stateKey, props.pageSize],
  );
  const [filterInput, setFilterInput] = useState(initial.globalFilter);
  const [globalFilter] = useDebouncedValue(filterInput, TABLE.globalSearchDebounceMs);
  const [sorting, setSorting] = useState<SortingState>(initial.sorting);
  const [pagination, setPagination] = useState({ pageIndex: initial.pageIndex, pageSize: initial.pageSize });
  const [rowSelection, setRowSelection] = useState<RowSelectionState>({});
  const [selectionNote, setSelectionNote] = useState<string | null>(null);
  const [columnVisibility, setColumnVisibility] = useState<VisibilityState>(() =>
    Object.fromEntries(loadHiddenColumns(stateKey).map((id) => [id, false])),
  );

  useEffect(() => {
    saveTableState(stateKey, {
      globalFilter,
      sorting,
      pageIndex: pagination.pageIndex,
      pageSize: pagination.pageSize,
    });
  }, [stateKey, globalFilter, sorting, pagination]);

  const columns = useMemo<ColumnDef<T, unknown>[]>(() => {
    if (!selection) return props.columns;
    const select: ColumnDef<T, unknown> = {
      id: '_select',
      header: () => null,
      enableSorting: false,
      cell: ({ row }) => (
        <Checkbox
          aria-label={`Select row ${row.id}`}
          checked={row.getIsSelected()}
          onChange={row.getToggleSelectedHandler()}
        />
      ),
    };
    return [select, ...props.columns];
  }, [props.columns, selection]);

  const server = props.server;
  // The rows selected, by id, kept while they are on another page (server mode) or filtered out.
  const selectedRows = useRef(new Map<string, T>());
  const table = useReactTable({
    data,
    columns,
    ...(server
      ? {
          manualPagination: true,
          manualFiltering: true,
          manualSorting: true,
          rowCount: server.total,
          enableSorting: !!server.sortable,
          enableMultiSort: false,
        }
      : {}),
    getRowId: props.getRowId,
    state: { globalFilter, sorting, pagination, rowSelection, columnVisibility },
    onSortingChange: setSorting,
    onPaginationChange: setPagination,
    onColumnVisibilityChange: setColumnVisibility,
    onRowSelectionChange: (updater) => {
      const next = typeof updater === 'function' ? updater(rowSelection) : updater;
      const count = Object.values(next).filter(Boolean).length;
      if (count > maxSelection) {
        setSelectionNote(`You can select at most ${maxSelection} rows.`);
        return;
      }
      setSelectionNote(null);
      const kept = selectedRows.current;
      for (const id of [...kept.keys()]) if (!next[id]) kept.delete(id);
      for (const row of data) {
        const id = props.getRowId(row);
        if (next[id] && !kept.has(id)) kept.set(id, row);
      }
      setRowSelection(next);
    },
    enableMultiRowSelection: true,
    sortDescFirst: false, // first click sorts ascending, for numbers too
    autoResetPageIndex: false,
    getCoreRowModel: getCoreRowModel(),
    getFilteredRowModel: getFilteredRowModel(),
    getSortedRowModel: getSortedRowModel(),
    getPaginationRowModel: getPaginationRowModel(),
  });

  // Tell the parent which rows are selected whenever the selection changes: in data order, then
  // (server mode) those of other pages in the order they were selected. Deliberately not keyed
  // on `data` or the callbacks: a parent passing a fresh array or function on each render must
  // not loop.
  const latest = useRef({ data, onChange: selection?.onChange, getRowId: props.getRowId, paged: !!server });
  latest.current = { data, onChange: selection?.onChange, getRowId: props.getRowId, paged: !!server };
  useEffect(() => {
    const { data: rows, onChange, getRowId, paged } = latest.current;
    const shown = rows.filter((row) => rowSelection[getRowId(row)]);
    if (!paged) {
      onChange?.(shown); // every row is in `data`
      return;
    }
    const shownIds = new Set(shown.map(getRowId));
    for (const row of shown) selectedRows.current.set(getRowId(row), row); // the latest copy
    const elsewhere = [...selectedRows.current].filter(([id]) => !shownIds.has(id)).map(([, row]) => row);
    onChange?.([...shown, ...elsewhere]);
  }, [rowSelection]);

  // Server mode: ask for the page, size, filter and sort shown; a new filter starts at the first page.
  const onQueryChange = useRef(server?.onQueryChange);
  onQueryChange.current = server?.onQueryChange;
  const lastFilter = useRef(globalFilter);
  useEffect(() => {
    if (!onQueryChange.current) return;
    if (lastFilter.current !== globalFilter) {
      lastFilter.current = globalFilter;
      if (pagination.pageIndex !== 0) {
        setPagination((p) => ({ ...p, pageIndex: 0 }));
        return;
      }
    }
    onQueryChange.current({
      pageIndex: pagination.pageIndex,
      pageSize: pagination.pageSize,
      globalFilter,
      sorting,
    });
  }, [globalFilter, pagination.pageIndex, pagination.pageSize, sorting]);

  // A filter that leaves fewer pages than the saved page goes back to the first page.
  // Not while there are no rows at all: that is a list still loading (after a reload
  // the remembered page must survive until the rows arrive). In server mode the
  // server's total tells (a page past the end comes back empty, with the total).
  const pageCount = table.getPageCount();
  const hasData = server ? server.total > 0 : data.length > 0;
  useEffect(() => {
    if (hasData && pagination.pageIndex > 0 && pagination.pageIndex >= pageCount)
      setPagination((p) => ({ ...p, pageIndex: 0 }));
  }, [hasData, pageCount, pagination.pageIndex]);

  const toggleColumn = (id: string, visible: boolean) => {
    const next = { ...columnVisibility, [id]: visible };
    setColumnVisibility(next);
    saveHiddenColumns(
      stateKey,
      Object.entries(next)
        .filter(([, v]) => !v)
        .map(([k]) => k),
    );
  };

  const rows = table.getRowModel().rows;
  const filteredCount = server ? server.total : table.getFilteredRowModel().rows.length;

  return (
    <div>
      <Group justify="space-between" mb="sm" wrap="wrap" gap="sm">
        <Group gap="sm">
          {props.globalFilter !== false && (
            <TextInput
              aria-label="Search"
              placeholder="Search…"
              value={filterInput}
              onChange={(e) => setFilterInput(e.currentTarget.value)}
              maxLength={999}
              w={260}
            />
          )}
          {props.toolbar}
        </Group>
        <Group gap="xs">
          {props.hideableColumns && (
            <ColumnsMenu table={table} columns={props.hideableColumns} onToggle={toggleColumn} />
          )}
          {props.exportAs && <ExportMenu table={table} exportAs={props.exportAs} serverMode={!!server} />}
        </Group>
      </Group>
      {selectionNote && (
        <Alert color="yellow" mb="sm" withCloseButton onClose={() => setSelectionNote(null)}>
          {selectionNote}
        </Alert>
      )}
      {/* A native scroll box that takes focus only when the table is wider than it, so a wide table
          scrolls with the keyboard too (axe scrollable-region-focusable) without an extra Tab stop otherwise. */}
      <Table.ScrollContainer
        ref={scrollBox}
        minWidth={600}
        type="native"
        {...(overflows ? { tabIndex: 0, role: 'region', 'aria-label': `${props.label} (scrollable)` } : {})}
      >
        <Table striped highlightOnHover withTableBorder aria-label={props.label}>
          <Table.Thead>
            {table.getHeaderGroups().map((hg) => (
              <Table.Tr key={hg.id}>
                {hg.headers.map((h) => {
                  const sorted = h.column.getIsSorted();
                  return (
                    <Table.Th
                      key={h.id}
                      aria-sort={
                        sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined
                      }
                    >
                      {h.column.getCanSort() ? (
                        <button
                          type="button"
                          onClick={h.column.getToggleSortingHandler()}
                          className="tw-sort"
                        >
                          {flexRender(h.column.columnDef.header, h.getContext())}
                          <span aria-hidden>{sorted === 'asc' ? ' ▲' : sorted === 'desc' ? ' ▼' : ''}</span>
                        </button>
                      ) : (
                        flexRender(h.column.columnDef.header, h.getContext())
                      )}
                    </Table.Th>
                  );
                })}
              </Table.Tr>
            ))}
          </Table.Thead>
          <Table.Tbody>
            {rows.length === 0 ? (
              <Table.Tr>
                <Table.Td colSpan={table.getVisibleLeafColumns().length}>
                  <Text c="dimmed" ta="center" py="md">
                    {props.emptyText}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ) : (
              rows.map((row) => (
                <Table.Tr key={row.id} data-selected={row.getIsSelected() || undefined}>
                  {row.getVisibleCells().map((cell) => (
                    <Table.Td key={cell.id}>
                      {flexRender(cell.column.columnDef.cell, cell.getContext())}
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))
            )}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Group justify="space-between" mt="sm" wrap="wrap">
        <Text size="sm" c="dimmed">
          {filteredCount} {filteredCount === 1 ? 'row' : 'rows'}
          {selection ? ` · ${Object.keys(rowSelection).length} selected (max ${maxSelection})` : ''}
        </Text>
        <Group gap="sm">
          {(!server || server.pageSizes) && (
            <Select
              aria-label="Rows per page"
              size="xs"
              w={90}
              data={TABLE.pageSizes.map(String)}
              value={String(pagination.pageSize)}
              onChange={(v) => v && setPagination({ pageIndex: 0, pageSize: Number(v) })}
            />
          )}
          <Pagination
            size="sm"
            total={Math.max(pageCount, 1)}
            value={pagination.pageIndex + 1}
            onChange={(p) => setPagination((s) => ({ ...s, pageIndex: p - 1 }))}
            // The arrows are icons: name them (axe button-name); the page numbers are named by their text.
            getControlProps={(control) => ({ 'aria-label': `${CONTROL_LABELS[control]} page` })}
          />
        </Group>
      </Group>
    </div>
  );
}
