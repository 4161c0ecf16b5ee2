/* Checks a journey makes from inside the page: axe on the current state, and a JSON write as the SPA makes it. */
import axe from 'axe-core';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/** WCAG 2.0 and 2.1, levels A and AA. */
export const WCAG_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/**
 * axe-core's `axe.run` over the page's document as it is now. axe is injected once per document
 * and stays while the SPA navigates (a new document gets it again). Not @axe-core/playwright's
 * AxeBuilder: it injects axe's 500 kB source on every call and then opens a blank page of its own to
 * finish each run, which cost more than the checks themselves (about 2.3 s a page on 2 busy cores).
 */
export async function runAxe(
  page: Page,
  opts: { tags?: string[]; enable?: string[]; disable?: string[] } = {},
): Promise<axe.AxeResults> {
  const loaded = await page.evaluate(() => typeof (window as { axe?: unknown }).axe === 'object');
  if (!loaded) await page.evaluate(axe.source);
  const rules: Record<string, { enabled: boolean }> = {};
  for (const id of opts.enable ?? []) rules[id] = { enabled: true };
  for (const id of opts.disable ?? []) rules[id] = { enabled: false };
  const options: axe.RunOptions = {
    runOnly: { type: 'tag', values: opts.tags ?? WCAG_AA },
    rules,
    // What a finding needs, no more: the passes' node lists are the bulk of a result.
    resultTypes: ['violations'],
  };
  return page.evaluate(
    (o) => (window as unknown as { axe: typeof axe }).axe.run(document, o as axe.RunOptions),
    options as unknown as Record<string, unknown>,
  );
}

/**
 * The page's finite animations and transitions run to their end (at most 2 s): axe computes
 * colours as drawn, and a modal still fading in (its text at part opacity over the overlay) failed
 * color-contrast once (data-export journey, seed 170185). Endless ones (a loader) are not waited for.
 */
async function settled(page: Page) {
  await page.evaluate(() =>
    Promise.race([
      Promise.all(
        document
          .getAnimations()
          .filter((a) => Number.isFinite(a.effect?.getComputedTiming().iterations ?? 1))
          .map((a) => a.finished.catch(() => undefined)),
      ),
      new Promise((resolve) => setTimeout(resolve, 2000)),
    ]),
  );
}

/** axe (WCAG 2.1 A/AA) over the page in this state: no serious or critical violation. */
export async function accessible(page: Page, where: string) {
  await settled(page);
  const result = await runAxe(page);
  const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    bad.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join('; ')})`),
    `axe on ${where}`,
  ).toEqual([]);
}

/** A JSON write from inside the page (its cookies and CSRF token), as the SPA makes it. */
export async function apiWrite<T>(page: Page, method: string, url: string, body: unknown): Promise<T> {
  const res = await page.evaluate(
    async ({ method, url, body }) => {
      const csrf = (await (await fetch('/api/csrf-token')).json()).csrfToken as string;
      const r = await fetch(url, {
        method,
        headers: { 'content-type': 'application/json', 'x-csrf-token': csrf },
        body: JSON.stringify(body),
      });
      return { status: r.status, json: await r.json() };
    },
    { method, url, body },
  );
  if (res.status !== 200) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(res.json)}`);
  return res.json as T;
}
