/*
 * The database going away under a coordinator's open portal (issue 27), on a
 * portal of its own whose database connection runs through a TCP proxy in
 * front of the journeys' PostgreSQL (a database of its own there): the proxy
 * refusing connections is the database restarting or failing over.
 * While it is down the page shows one message — "The service is temporarily
 * unavailable. Please try again in a moment." — and no error in any widget;
 * once the database is back the message goes by itself and the page reads
 * its data again, without a reload or a new sign-in.
 */
import { randomBytes } from 'node:crypto';
import { SERVICE_UNAVAILABLE } from '@trialwear/contract';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DbProxy, startDbProxy } from '../../scripts/db-proxy.mjs';
import { launchBrowser, screenshot, signIn } from '../support/browser.js';
import { clusterOf, withDatabase } from '../support/database.js';
import { type OwnServer, startOwnServer } from '../support/own-server.js';
import { accessible } from '../support/page-checks.js';
import { gone, shows } from '../support/wait.js';

const TRIAL = 'Sleep and Activity Study';
const DATABASE = `tw_outage_${randomBytes(4).toString('hex')}`;

describe('the database going away under an open portal', () => {
  let browser: Browser;
  let proxy: DbProxy;
  let server: OwnServer | undefined;

  beforeAll(async () => {
    browser = await launchBrowser();
    const cluster = clusterOf();
    await withDatabase((db) => db.query(`CREATE DATABASE ${DATABASE}`));
    proxy = await startDbProxy({ host: cluster.host, port: cluster.port });
    const url = `postgres://${cluster.user}:${encodeURIComponent(cluster.password)}@127.0.0.1:${proxy.port}/${DATABASE}`;
    server = await startOwnServer({
      DATABASE_URL: url,
      // A portal on a database it did not start needs its secrets given (as on a shared database).
      ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      SESSION_SECRET: randomBytes(32).toString('base64url'),
    });
  }, 180_000);
  afterAll(async () => {
    await proxy?.accept().catch(() => {});
    await server?.stop();
    await proxy?.close();
    await withDatabase((db) => db.query(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`));
    await browser?.close();
  });

  it('one message while it is down, the page back by itself after', { timeout: 180_000 }, async () => {
    const context = await browser.newContext({
      baseURL: server!.baseUrl,
      viewport: { width: 1280, height: 860 },
    });
    const page = await context.newPage();
    await signIn(page, 'admin');
    await page.getByRole('button', { name: TRIAL }).click();
    await page.waitForURL('**/TrialPage');
    const participants = page.getByRole('table', { name: 'Participants' }).locator('tbody tr');
    // A demo participant's row: the list has been read (not a loading row).
    const first = participants.filter({ hasText: 'SLP-001' });
    await shows(first);
    const rowsBefore = await participants.count();

    await proxy.refuse();
    // Back to the dashboard: its trials are read again, and the read meets the outage.
    await page.goBack();
    await page.waitForURL((u) => !u.pathname.endsWith('/TrialPage'));
    const banner = page.getByTestId('service-unavailable');
    await shows(banner);
    await shows(page.getByText(SERVICE_UNAVAILABLE.message));
    // Once, and no widget shows an error of its own.
    expect(await page.getByText(SERVICE_UNAVAILABLE.message).count()).toBe(1);
    expect(await page.getByText(/An error occurred|An unknown error occurred|Database Error/).count()).toBe(
      0,
    );
    await accessible(page, 'the dashboard with the outage banner');
    await screenshot(page, 'database-outage-banner');

    await proxy.accept();
    // The banner probes readiness at the Retry-After interval and goes by itself; the reads run.
    await gone(banner, 30_000);
    await shows(page.getByRole('button', { name: TRIAL }));
    await page.getByRole('button', { name: TRIAL }).click();
    await page.waitForURL('**/TrialPage');
    await shows(first);
    expect(await participants.count()).toBe(rowsBefore);
    await screenshot(page, 'database-outage-recovered');
    await context.close();
  });
});
