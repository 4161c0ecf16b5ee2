/*
 * The raw page's query for a Fitbit link (either API): one allow-listed
 * tracker resource path, answered as received; `/overview` is the portal's
 * own and has no raw answer.
 */
import { DATA_MESSAGES, parseFitbitResourcePath } from '@trialwear/contract';
import { type DataQuery, type RawQuery, RawQueryRefused } from '../types.js';

export function fitbitRawQuery(q: RawQuery): DataQuery {
  const parsed = parseFitbitResourcePath(q.resource);
  if (!parsed || parsed.kind === 'overview') throw new RawQueryRefused(DATA_MESSAGES.unknownResource);
  return { resource: 'tracker', params: { path: q.resource } };
}
