import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { DbInfoPage, DbInfoTable } from '@trialwear/contract';
import { api } from '../../../lib/api-client';

/** One server page (50 rows) of a database info table; the previous page stays shown while the next loads. */
export const useDbInfoPage = (table: DbInfoTable, pageIndex: number, filter: string) =>
  useQuery({
    queryKey: ['dbInfo', table, pageIndex, filter],
    queryFn: () =>
      api.get<DbInfoPage>(
        `/dbInfo/${table}?${new URLSearchParams({ page: String(pageIndex), filter }).toString()}`,
      ),
    placeholderData: keepPreviousData,
  });
