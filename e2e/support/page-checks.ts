/* Checks a journey makes from inside the page: axe on the current state, and a JSON write as the SPA makes it. */
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/** axe (WCAG 2.1 A/AA) over the page in this state: no serious or critical violation. */
export async function accessible(page: Page, where: string) {
  const result = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
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
