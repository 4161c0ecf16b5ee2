import type { AppContext } from '../../app-context.js';
import { APP_VERSION } from '../../version.js';

/** What the browser needs before it can sign in or send a form. */
export function publicConfig(ctx: AppContext) {
  return {
    version: APP_VERSION,
    recaptchaSiteKey: ctx.recaptcha.enabled ? (ctx.config.RECAPTCHA_SITE_KEY ?? null) : null,
  };
}
