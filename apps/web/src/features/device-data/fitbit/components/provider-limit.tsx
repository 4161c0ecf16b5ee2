/*
 * One message per page for a provider limit (issue #21): every chart of the
 * page that was refused for the device's hourly limit reports it here, and
 * the page shows a single notice with the time calls resume (the viewer's
 * clock), instead of one red box per chart.
 */
import { Alert } from '@mantine/core';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { latestLimit, providerLimitOf, providerLimitText } from '../../lib/data-error';

type Limit = { resumesAt: string | null };
type Report = (key: string, limit: Limit | null) => void;
const LimitContext = createContext<Report | null>(null);

/** The page's notice above `children`, shown while any of them is refused for the limit. */
export function ProviderLimitScope({ brand, children }: { brand: string; children: ReactNode }) {
  const [limits, setLimits] = useState<Record<string, Limit>>({});
  const report = useCallback<Report>((key, limit) => {
    setLimits((prev) => {
      if (limit ? prev[key]?.resumesAt === limit.resumesAt && key in prev : !(key in prev)) return prev;
      const next = { ...prev };
      if (limit) next[key] = limit;
      else delete next[key];
      return next;
    });
  }, []);
  const latest = useMemo(() => latestLimit(Object.values(limits)), [limits]);
  return (
    <LimitContext.Provider value={report}>
      {latest && (
        <Alert color="yellow" role="status" data-provider-limit>
          {providerLimitText(latest, brand)}
        </Alert>
      )}
      {children}
    </LimitContext.Provider>
  );
}

/**
 * Reports this part's error to the page's notice when it is a provider
 * limit; true when the page shows it (the part then shows no error of its own).
 */
export function useProviderLimit(key: string, err: unknown): boolean {
  const report = useContext(LimitContext);
  const limit = providerLimitOf(err);
  const at = limit ? (limit.resumesAt ?? '') : null;
  useEffect(() => {
    if (!report) return;
    report(key, at === null ? null : { resumesAt: at || null });
    return () => report(key, null);
  }, [report, key, at]);
  return report !== null && at !== null;
}
