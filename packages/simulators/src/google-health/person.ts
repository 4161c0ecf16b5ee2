/*
 * Who the simulated Google Health user is. One person behind each portal
 * participant, on both APIs: the Google user a participant consents with is
 * the same person as the participant's legacy Fitbit user (the same consent
 * state gives the same `fitbitUserId`), so every value is derived from the
 * legacy generators (`fitbitDay`, `fitbitIntradayDataset`, …) keyed by that
 * legacy id. The Google identity (`healthUserId`, numeric) is derived from
 * it; `/identity` reports it as `legacyUserId` (google-health-api.md §2.6).
 *
 * A person's time zone starts as the legacy user's zone and can be changed
 * from an instant (travel, a move; the control API): each local date uses
 * the zone in force when that day begins (`zoneOfDate`), so a day's values
 * stay the legacy day's values while its points carry the new offset.
 */
import { createHash } from 'node:crypto';
import { instantOfLocal } from '@trialwear/zone';
import { fitbitUserId, fitbitUserTimezone } from '../fitbit/fitbit-data.js';
import { personSeed } from '../oauth/common.js';

/** A stable numeric Google Health user id (1–63 chars, observed numeric) for a legacy Fitbit user. */
export function googleHealthUserId(legacyFitbitUserId: string): string {
  const h = createHash('sha256').update(`google-health:${legacyFitbitUserId}`).digest();
  return String(1_000_000_000 + (h.readUInt32BE(0) % 8_999_999_999));
}

/** The Google OIDC `sub` (21 digits): not the healthUserId (§2.6: do not assume they are equal). */
export function googleSub(healthUserId: string): string {
  const h = createHash('sha256').update(`google-sub:${healthUserId}`).digest('hex');
  return `1${BigInt(`0x${h.slice(0, 16)}`)
    .toString()
    .padStart(20, '0')
    .slice(0, 20)}`;
}

export interface ZoneChange {
  /** From this instant (ms)… */
  from: number;
  /** …the person lives in this IANA zone. */
  tz: string;
}

export interface DeviceOverride {
  batteryLevel?: number;
  batteryStatus?: string;
  lastSyncTime?: string;
}

export interface Person {
  healthUserId: string;
  /** The seed of every value: the legacy Fitbit user id of the same person. */
  dataUserId: string;
  /** What /identity reports as legacyUserId (null: the user has no legacy account). */
  legacyUserId: string | null;
  /** Zone history, oldest first; the first entry applies from the beginning of time. */
  zones: ZoneChange[];
  /** Control API: the Google account is not linked to a Fitbit account (every data call: 400 ACCOUNT_NOT_LINKED). */
  notLinked?: boolean;
  /** Control API: battery and last sync of the paired devices, by device kind. */
  devices: { TRACKER?: DeviceOverride; SCALE?: DeviceOverride };
}

/** The people one simulator instance knows, by healthUserId. */
export class People {
  private byId = new Map<string, Person>();

  /**
   * The person who consents for a request: the legacy Fitbit user the same
   * consent state would sign in as with the legacy client (`legacyClientId`).
   */
  forConsent(q: { state?: string; login_hint?: string }, legacyClientId: string): Person {
    return this.forLegacy(fitbitUserId(`${legacyClientId}:${personSeed(q)}`));
  }

  /** The Google user of a legacy Fitbit user (same person). */
  forLegacy(legacyFitbitUserId: string): Person {
    const id = googleHealthUserId(legacyFitbitUserId);
    let p = this.byId.get(id);
    if (!p) {
      p = fresh(id, legacyFitbitUserId, legacyFitbitUserId);
      this.byId.set(id, p);
    }
    return p;
  }

  /**
   * A healthUserId the simulator issued, or any other account a test signs
   * in as (a Google user without a legacy Fitbit account: its values are
   * seeded by the id itself).
   */
  get(healthUserId: string): Person {
    let p = this.byId.get(healthUserId);
    if (!p) {
      p = fresh(healthUserId, healthUserId, null);
      this.byId.set(healthUserId, p);
    }
    return p;
  }

  /** A person by healthUserId or by legacy Fitbit user id (control API). */
  find(id: string): Person | undefined {
    return this.byId.get(id) ?? [...this.byId.values()].find((p) => p.dataUserId === id);
  }

  /** Control API reset: every person back to the legacy zone, identity and devices. */
  reset() {
    for (const p of this.byId.values()) {
      const f = fresh(p.healthUserId, p.dataUserId, this.isLegacy(p) ? p.dataUserId : null);
      Object.assign(p, f);
    }
  }

  private isLegacy(p: Person) {
    return googleHealthUserId(p.dataUserId) === p.healthUserId;
  }
}

function fresh(healthUserId: string, dataUserId: string, legacyUserId: string | null): Person {
  return {
    healthUserId,
    dataUserId,
    legacyUserId,
    zones: [{ from: Number.NEGATIVE_INFINITY, tz: fitbitUserTimezone(dataUserId).tz }],
    notLinked: false,
    devices: {},
  };
}

/** The zone in force at an instant. */
export function zoneAt(p: Person, t: number): string {
  let tz = p.zones[0]!.tz;
  for (const z of p.zones) if (z.from <= t) tz = z.tz;
  return tz;
}

/**
 * The zone a local date is lived in: the latest zone whose change happened
 * at or before that local day began (in that zone). The day during which
 * the zone changes is still lived in the old zone; the next one in the new.
 */
export function zoneOfDate(p: Person, date: string): string {
  for (let i = p.zones.length - 1; i > 0; i--) {
    const z = p.zones[i]!;
    if (instantOfLocal(z.tz, `${date}T00:00`) >= z.from) return z.tz;
  }
  return p.zones[0]!.tz;
}

/** Change the person's zone from an instant on (later changes are replaced). */
export function changeZone(p: Person, tz: string, from: number) {
  p.zones = [...p.zones.filter((z) => z.from < from), { from, tz }];
}
