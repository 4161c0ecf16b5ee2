/*
 * The profile service of the v4 surface: identity (healthUserId and the
 * legacy user id), profile, settings, and the paired devices (the legacy
 * devices list of the same person).
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { fitbitDevices, fitbitTrackerLastSync, lastSync } from '../../fitbit/fitbit-data.js';
import { ageOf } from '../data-types/heart-day.js';
import { MEMBER_SINCE } from '../data-types/legacy-day.js';
import { GoogleApiError, gDate, omitDefaults, timestamp, utcOffset } from '../gh-json.js';
import { type Person, zoneAt } from '../person.js';
import { bindingOf, decodeToken, encodeToken, pageSizeOf } from './page-tokens.js';
import type { RouteKit } from './route-kit.js';

export function registerProfileRoutes(app: FastifyInstance, { clock, wrap }: RouteKit) {
  app.get(
    '/v4/users/:user/identity',
    wrap('HealthProfileService.GetIdentity', 'any', (person) => ({
      name: 'users/me/identity',
      healthUserId: person.healthUserId,
      ...(person.legacyUserId && { legacyUserId: person.legacyUserId }),
    })),
  );

  app.get(
    '/v4/users/:user/profile',
    wrap('HealthProfileService.GetProfile', 'profile', (person) => {
      const seed = createHash('sha256').update(`${person.dataUserId}:profile`).digest();
      const stride = 640 + (seed.readUInt16BE(0) % 140);
      return omitDefaults({
        name: 'users/me/profile',
        age: ageOf(person.dataUserId),
        membershipStartDate: gDate(MEMBER_SINCE),
        autoWalkingStrideLengthMm: stride,
        autoRunningStrideLengthMm: Math.round(stride * 1.38),
      });
    }),
  );

  app.get(
    '/v4/users/:user/settings',
    wrap('HealthProfileService.GetSettings', 'settings', (person) => {
      const now = clock.now().getTime();
      const tz = zoneAt(person, now);
      return {
        name: 'users/me/settings',
        autoStrideEnabled: true,
        distanceUnit: 'DISTANCE_UNIT_KILOMETERS',
        glucoseUnit: 'GLUCOSE_UNIT_MG_DL',
        heightUnit: 'HEIGHT_UNIT_CENTIMETERS',
        weightUnit: 'WEIGHT_UNIT_KILOGRAMS',
        temperatureUnit: 'TEMPERATURE_UNIT_CELSIUS',
        swimUnit: 'SWIM_UNIT_METERS',
        waterUnit: 'WATER_UNIT_ML',
        languageLocale: 'en_US',
        timeZone: tz,
        utcOffset: utcOffset(tz, now),
        strideLengthWalkingType: 'STRIDE_LENGTH_TYPE_AUTO',
        strideLengthRunningType: 'STRIDE_LENGTH_TYPE_AUTO',
        foodLanguageCode: 'en-US',
      };
    }),
  );

  /** The paired devices: the legacy devices list of the same person, last sync as a UTC instant. */
  const pairedDevices = (person: Person) => {
    const now = clock.now();
    return fitbitDevices(person.dataUserId, now).map((d) => {
      const o = person.devices[d.type] ?? {};
      const synced =
        d.type === 'TRACKER'
          ? fitbitTrackerLastSync(person.dataUserId, now)
          : lastSync(person.dataUserId, 'scale', now);
      return omitDefaults({
        name: `users/me/pairedDevices/${d.id}`,
        deviceType: d.type,
        batteryStatus: o.batteryStatus ?? d.battery,
        batteryLevel: o.batteryLevel ?? d.batteryLevel,
        lastSyncTime: o.lastSyncTime ?? timestamp(synced.getTime()),
        deviceVersion: d.deviceVersion,
        macAddress: d.mac,
        features:
          d.type === 'TRACKER'
            ? ['STEPS', 'HEART_RATE', 'SPO2', 'SLEEP', 'ACTIVE_ZONE_MINUTES']
            : ['WEIGHT', 'BODY_FAT'],
      });
    });
  };

  app.get(
    '/v4/users/:user/pairedDevices',
    wrap('HealthProfileService.ListPairedDevices', 'settings', (person, request) => {
      const q = request.query as Record<string, string | undefined>;
      const size = pageSizeOf(q.pageSize, 5, 100);
      const binding = bindingOf('pairedDevices', person.healthUserId);
      const from = q.pageToken ? decodeToken<{ i: number }>(q.pageToken, binding).i : 0;
      const all = pairedDevices(person);
      const page = all.slice(from, from + size);
      return {
        ...(page.length > 0 && { pairedDevices: page }),
        ...(from + size < all.length && { nextPageToken: encodeToken(binding, { i: from + size }) }),
      };
    }),
  );

  app.get(
    '/v4/users/:user/pairedDevices/:id',
    wrap('HealthProfileService.GetPairedDevice', 'settings', (person, request) => {
      const { id } = request.params as { id: string };
      const d = pairedDevices(person).find((x) => x.name.endsWith(`/${id}`));
      if (!d) throw new GoogleApiError(404, `Paired device users/me/pairedDevices/${id} not found.`);
      return d;
    }),
  );
}
