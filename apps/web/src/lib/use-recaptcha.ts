/*
 * reCAPTCHA v3. The site key comes from GET /api/publicConfig; when the
 * server has none (verification off) the token is an empty string. The
 * script has 8 s to load (core §9).
 */
import { LOGIN_MESSAGES, TIMINGS } from '@trialwear/contract';
import { useCallback } from 'react';
import { usePublicConfig } from './public-config';

interface Grecaptcha {
  ready(cb: () => void): void;
  execute(siteKey: string, opts: { action: string }): Promise<string>;
}
declare global {
  interface Window {
    grecaptcha?: Grecaptcha;
  }
}

let scriptLoad: Promise<Grecaptcha> | undefined;
function loadScript(siteKey: string): Promise<Grecaptcha> {
  scriptLoad ??= new Promise<Grecaptcha>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('timeout')), TIMINGS.recaptchaScriptTimeoutMs);
    const script = document.createElement('script');
    script.src = `https://www.google.com/recaptcha/api.js?render=${encodeURIComponent(siteKey)}`;
    script.async = true;
    script.onload = () =>
      window.grecaptcha?.ready(() => {
        clearTimeout(timer);
        resolve(window.grecaptcha!);
      });
    script.onerror = () => {
      clearTimeout(timer);
      reject(new Error('script error'));
    };
    document.head.appendChild(script);
  }).catch((err) => {
    scriptLoad = undefined;
    throw err;
  });
  return scriptLoad;
}

export class RecaptchaError extends Error {
  constructor() {
    super(LOGIN_MESSAGES.recaptchaToken);
  }
}

/** Returns a function that yields a token for an action (or '' when reCAPTCHA is off). */
export function useRecaptcha() {
  const config = usePublicConfig();
  const siteKey = config.data?.recaptchaSiteKey ?? null;
  return useCallback(
    async (action: string): Promise<string> => {
      if (!siteKey) return '';
      try {
        const grecaptcha = await loadScript(siteKey);
        return await grecaptcha.execute(siteKey, { action });
      } catch {
        throw new RecaptchaError();
      }
    },
    [siteKey],
  );
}
