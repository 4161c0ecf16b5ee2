/*
 * What one server stores another uses: a session and its CSRF token, a
 * provider token (one provider call budget for both servers); a server with
 * the wrong encryption key shows the card's error label, and the key
 * rotation re-seals every token under the new key. Each test signs in and
 * makes the trial and the linked participant it needs.
 */
import { DEVICE_ERROR_LABELS, LINK_MESSAGES } from '@trialwear/contract';
import { fitbitDevices } from '@trialwear/simulators';
import { expect, it } from 'vitest';
import { keyId } from '../../src/security/encryption.js';
import { DEMO_PASSWORD } from '../../src/seed/demo.js';
import { throughAuthorizePage } from '../support/consent.js';
import { HttpSession, runCliWithEnv } from '../support/processes.js';
import type { Cluster } from './cluster.js';
import { until } from './cluster.js';

export function sessionsAndTokensCases(cl: Cluster) {
  /** The demo admin signed in on A. */
  async function signedIn() {
    const admin = new HttpSession(cl.a.base);
    await admin.login('admin', DEMO_PASSWORD);
    return admin;
  }

  /** A trial made through B (the trial numbers of the demo team are unique). */
  async function newTrial(admin: HttpSession, trialNumber: string) {
    const created = await admin
      .via(cl.b.base)
      .post('/api/userTrials', { trialNumber, trialName: 'Scale out' });
    expect(created.status).toBe(200);
    return ((await created.json()) as { trialId: number }).trialId;
  }

  /**
   * A participant of the trial made through B and linked to Fitbit: the authorize URL from B, the
   * callback (code exchange, tokens stored encrypted) through A. Answers its device and stored token.
   */
  async function linkedParticipant(admin: HttpSession, trialId: number, email: string) {
    const { a, b, db } = cl;
    const participantId = (
      (await (await admin.via(b.base).post('/api/trialParticipants', { trialId, email })).json()) as {
        participantId: number;
      }
    ).participantId;
    // These cases count the device's provider calls: the demo team's stored metrics (whose
    // background sync the link would start) are set aside, so only the cases' own calls count.
    await db.query(
      `UPDATE team_storage_settings SET is_enabled = false
       WHERE team_id = (SELECT team_id FROM participants WHERE id = $1)`,
      [participantId],
    );
    const req = await admin.post(`/api/participantDevices/${participantId}/fitbit/consentRequest`, {});
    expect(req.status).toBe(200);
    const { link } = (await req.json()) as { link: string };
    const { callback } = await throughAuthorizePage(b.base, 'fitbit', link);
    const done = await new HttpSession(a.base).post('/api/fitbit-callback', {
      authCode: callback.searchParams.get('code'),
      participantId: callback.searchParams.get('state'),
    });
    expect(done.status).toBe(200);
    // The devices are the Fitbit person's: through Google Health (the default API) that is the
    // link's legacy user, whose data the simulator serves; provider_user_id is the Google user.
    const stored = await db.query(
      `SELECT t.participant_device_id AS id, t.access_token_enc AS enc,
              coalesce(d.legacy_user_id, d.provider_user_id) AS user
       FROM provider_tokens t JOIN participant_devices d ON d.id = t.participant_device_id
       WHERE d.participant_id = $1`,
      [participantId],
    );
    return {
      participantId,
      deviceId: stored.rows[0].id as number,
      enc: stored.rows[0].enc as string,
      devices: theDevices(stored.rows[0].user as string),
    };
  }

  it('a session and CSRF token made on one server work on the other', async () => {
    const { a, b } = cl;
    // Signed in on A, with the CSRF token A gave for the sign-in (HttpSession fetches it first) ...
    const admin = new HttpSession(a.base);
    await admin.login('admin', DEMO_PASSWORD);
    // ... then the same cookies and token on B: read, and a write that needs the CSRF token.
    const onB = admin.via(b.base);
    expect(await (await onB.get('/api/auth/user')).json()).toMatchObject({
      message: 'Authorized',
      user: { userName: 'admin' },
    });
    const created = await onB.post('/api/userTrials', { trialNumber: '15', trialName: 'Scale out' });
    expect(created.status).toBe(200);
    const trialId = ((await created.json()) as { trialId: number }).trialId;
    // And back on A, the trial B created.
    const trials = (await (await admin.get('/api/userTrials')).json()) as Array<{ trialId: number }>;
    expect(trials.map((t) => t.trialId)).toContain(trialId);
  });

  it('a provider token stored through one server is used through the other; one provider budget for both', async () => {
    const { b, db, secrets } = cl;
    const admin = await signedIn();
    const onB = admin.via(b.base);
    const { participantId, deviceId, enc, devices } = await linkedParticipant(
      admin,
      await newTrial(admin, '16'),
      'wearer@scale.example',
    );
    expect(enc.startsWith(`v2.${keyId(Buffer.from(secrets.ENCRYPTION_KEY, 'base64'))}.`)).toBe(true);

    const budget = async () =>
      (
        await db.query('SELECT budget_calls FROM device_sync_state WHERE participant_device_id = $1', [
          deviceId,
        ])
      ).rows[0]?.budget_calls ?? 0;
    const before = await budget();
    for (const s of [onB, admin]) {
      const res = await s.get(`/api/participantDevices/${participantId}/fitbit`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual(devices);
    }
    // Both servers counted on the device's one budget in PostgreSQL.
    expect(await budget()).toBe(before + 2);
    // Spent (here by hand, as the sync and other servers would): both servers show the card's label.
    await db.query(
      `UPDATE device_sync_state SET budget_calls = 150, budget_hour = date_trunc('hour', now())
       WHERE participant_device_id = $1`,
      [deviceId],
    );
    for (const s of [admin, onB]) {
      const res = await s.get(`/api/participantDevices/${participantId}/fitbit`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual([
        expect.objectContaining({ hasError: true, errorType: DEVICE_ERROR_LABELS.rateLimited }),
      ]);
    }
    await db.query('UPDATE device_sync_state SET budget_calls = 0 WHERE participant_device_id = $1', [
      deviceId,
    ]);
  });

  it('a wrong key gives the device card its error label, never a 500; the rotation re-seals and loses nothing', async () => {
    const { c, env, secrets, otherKey, dataDir, db } = cl;
    const admin = await signedIn();
    const onC = admin.via(c.base);
    const { participantId, deviceId, devices } = await linkedParticipant(
      admin,
      await newTrial(admin, '17'),
      'rotated@scale.example',
    );
    const wrong = await onC.get(`/api/participantDevices/${participantId}/fitbit`);
    expect(wrong.status).toBe(200);
    expect(await wrong.json()).toEqual([
      expect.objectContaining({
        device: 'Error',
        hasError: true,
        errorType: DEVICE_ERROR_LABELS.authCheckFailed,
      }),
    ]);
    // The log names the cause (the key id asked for), never the value.
    await until(() => c.output().includes('cannot be decrypted'), 'the log line');
    expect(c.output()).toContain(
      `participant device ${deviceId} cannot be decrypted: sealed with key id ${keyId(Buffer.from(secrets.ENCRYPTION_KEY, 'base64'))}`,
    );
    // The staff's refresh action: the spec's refresh failure, not a 500; nothing is deleted.
    const refresh = await onC.post('/api/fitbitRefreshToken', { id: participantId });
    expect(refresh.status).toBe(502);
    expect(((await refresh.json()) as { message: string }).message).toBe(LINK_MESSAGES.refreshFailed);

    // Rotate to C's key, reading the old values with the old key: every token sealed with it (this
    // test's, and those other tests linked before) is resealed.
    const oldKeyId = keyId(Buffer.from(secrets.ENCRYPTION_KEY, 'base64'));
    const sealedWithOld = (
      await db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM provider_tokens WHERE access_token_enc LIKE 'v2.' || $1 || '.%'",
        [oldKeyId],
      )
    ).rows[0]!.n;
    expect(sealedWithOld).toBeGreaterThanOrEqual(1);
    const rotateEnv = {
      ...process.env,
      ...env,
      ENCRYPTION_KEY: otherKey,
      ENCRYPTION_KEYS_PREVIOUS: secrets.ENCRYPTION_KEY,
      DATA_DIR: dataDir(),
      LOG_LEVEL: 'silent',
    };
    const first = await runCliWithEnv(rotateEnv, 'rotate-encryption-key', '--batch-size', '1');
    expect(first.code, first.stderr).toBe(0);
    const result = JSON.parse(first.stdout);
    expect(result).toMatchObject({
      ok: true,
      command: 'rotate-encryption-key',
      keyId: keyId(Buffer.from(otherKey, 'base64')),
      tables: { provider_tokens: { resealed: sealedWithOld, undecryptable: 0 } },
    });
    // Resumable: a second run finds nothing left to do.
    const again = JSON.parse((await runCliWithEnv(rotateEnv, 'rotate-encryption-key')).stdout);
    expect(again.tables.provider_tokens).toEqual({ resealed: 0, undecryptable: 0, changedMeanwhile: 0 });
    expect(again.tables.users.resealed).toBe(0);

    // C reads the token now; A (the old key only) gets the label, and nothing was lost.
    expect(await (await onC.get(`/api/participantDevices/${participantId}/fitbit`)).json()).toEqual(devices);
    expect(await (await admin.get(`/api/participantDevices/${participantId}/fitbit`)).json()).toEqual([
      expect.objectContaining({ hasError: true, errorType: DEVICE_ERROR_LABELS.authCheckFailed }),
    ]);
  }, 60_000);
}

/**
 * The device cards of a simulated Fitbit account, read with the stored token: its tracker, and its
 * scale when the account has one (the simulator gives a scale to about half of its accounts).
 */
function theDevices(fitbitUser: string) {
  return fitbitDevices(fitbitUser, new Date()).map((d) =>
    d.type === 'TRACKER'
      ? expect.objectContaining({ device: 'fitness tracker', deviceType: 'TRACKER', hasError: false })
      : expect.objectContaining({ device: 'scale', hasError: false }),
  );
}
