/*
 * Scope values: proof that a rule of this module checked what an actor may
 * reach. Repos that read or write a team's data take one of these instead of
 * bare ids, so a query that skipped the check does not compile. The brand is
 * a symbol only this module can name: outside `access/`, a scope is made by
 * calling a rule (`requireTrial`, `requireParticipant` …), never by writing
 * an object literal (the architecture test refuses `as …Scope` casts and
 * imports of `mintScope` elsewhere).
 *
 * Kinds, narrowest last: a team; the trials of a team the actor sees (all,
 * or those they are a trial user of); one trial; one participant (of a
 * trial); one export job (of a trial); one study-health alert (of a trial).
 */
declare const scopeBrand: unique symbol;
type Scope<K extends string, T> = Readonly<T> & { readonly [scopeBrand]: K };

/** A team the actor may act in: the session's, or any for a Sys_Admin where a route names a team. */
export type TeamScope = Scope<'team', { teamId: number }>;
/**
 * The trials of a team the actor sees (design §5): `trialUserId` null means
 * every trial of the team (Sys_Admin, Admin); else only the trials that user
 * owns or is a trial user of (User, Viewer).
 */
export type TrialsScope = Scope<'trials', { teamId: number; trialUserId: number | null }>;
/** One trial the actor sees. */
export type TrialScope = Scope<'trial', { teamId: number; trialId: number }>;
/** One participant of a trial the actor sees. */
export type ParticipantScope = Scope<
  'participant',
  { teamId: number; trialId: number; participantId: number }
>;
/** One export job of the team whose trial the actor sees. */
export type ExportJobScope = Scope<'export_job', { teamId: number; trialId: number | null; jobId: string }>;

/** One study-health alert of a trial the actor sees. */
export type HealthAlertScope = Scope<'health_alert', { teamId: number; trialId: number; alertId: number }>;

export type AnyScope =
  | TeamScope
  | TrialsScope
  | TrialScope
  | ParticipantScope
  | ExportJobScope
  | HealthAlertScope;

/** For the rules of `access/` only: stamp a checked value as a scope. */
export function mintScope<S extends AnyScope>(value: Omit<S, typeof scopeBrand>): S {
  return Object.freeze(value) as S;
}
