import type { Locator } from 'playwright-core';

// playwright-core has no `expect`; these wait like Playwright's web-first assertions.
export const shows = (locator: Locator, timeout = 10_000) =>
  locator.first().waitFor({ state: 'visible', timeout });
export const gone = (locator: Locator, timeout = 10_000) =>
  locator.first().waitFor({ state: 'hidden', timeout });
