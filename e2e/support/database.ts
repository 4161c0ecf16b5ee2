/*
 * SQL against the running portal's embedded PostgreSQL, for the few journeys
 * that need data no screen creates (a catalog device without metrics, a
 * second team with many participants). Connects as the cluster's bootstrap
 * superuser, found the way the server finds it: the password file in
 * DATA_DIR and the port in the postmaster's pid file.
 */
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { dataDir } from './browser.js';

export async function withDatabase<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const dir = dataDir();
  const password = fs.readFileSync(path.join(dir, 'pg-password'), 'utf8').trim();
  const port = Number(fs.readFileSync(path.join(dir, 'pgdata', 'postmaster.pid'), 'utf8').split('\n')[3]);
  const client = new pg.Client({
    host: '127.0.0.1',
    port,
    user: 'trialwear',
    password,
    database: 'trialwear',
  });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
