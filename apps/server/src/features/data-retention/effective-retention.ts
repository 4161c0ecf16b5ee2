/*
 * How long a team keeps a metric's readings: the rule the retention purge
 * applies (jobs/retention-purge) and the Data Storage & Retention page shows,
 * written once. The longest retention_days among the team's settings of that
 * metric (a team may have two devices measuring it; disabled settings count
 * too, since a disabled metric keeps its readings until retention removes
 * them), never more than the team's retention_days when that is set; a metric
 * with no setting at all (the Sys_Admin removed it) keeps the team's
 * retention, else the default.
 */
import { RETENTION } from '@trialwear/contract';
import { type RawBuilder, sql } from 'kysely';

/**
 * The rule as an SQL expression over a team id, its teams.retention_days and a metric key (column
 * references of the caller's query; its own subquery's alias is one no caller uses).
 */
export function effectiveRetentionDays(
  teamId: RawBuilder<unknown>,
  teamRetentionDays: RawBuilder<unknown>,
  metricKey: RawBuilder<unknown>,
): RawBuilder<number> {
  return sql<number>`LEAST(
    COALESCE(
      (SELECT max(retention_setting.retention_days) FROM device_metric_settings retention_setting
        WHERE retention_setting.team_id = ${teamId} AND retention_setting.metric_key = ${metricKey}),
      ${teamRetentionDays},
      ${RETENTION.defaultDays}::int),
    COALESCE(${teamRetentionDays}, 2147483647))`;
}
