/*
 * The participant's side of a consent, as a browser would do it against the
 * portal and its mounted simulator: the consent link → the portal's
 * authorize URL → the simulator's authorize page → Allow or Deny → the
 * redirect back to the portal's callback page.
 */
import type { Provider } from '@trialwear/contract';

export interface AuthorizePageResult {
  /** The provider's authorize page the portal sent the browser to. */
  authorizeUrl: URL;
  /** Where the provider sends the browser back (the portal's callback page with code and state). */
  callback: URL;
  /** The fields of the authorize page's form (e.g. the account that signs in). */
  form: Record<string, string>;
}

export async function throughAuthorizePage(
  base: string,
  provider: Provider,
  consentLink: string | URL,
  opts: {
    decision?: 'allow' | 'deny';
    account?: string;
    /** The provider's authorize URL, when the test got it otherwise than from the consent page's call. */
    authorizeUrl?: string;
  } = {},
): Promise<AuthorizePageResult> {
  const link = new URL(consentLink);
  let url = opts.authorizeUrl;
  if (!url) {
    const authz = await fetch(
      `${base}/api/consent/${provider}/authorizeUrl?id=${link.searchParams.get('id')}&t=${encodeURIComponent(link.searchParams.get('t') ?? '')}`,
    );
    if (!authz.ok) throw new Error(`authorizeUrl answered ${authz.status}: ${await authz.text()}`);
    url = ((await authz.json()) as { url: string }).url;
  }
  const page = await (await fetch(url)).text();
  // Every field as the browser sends it: a granular consent page (Google) ticks one checkbox per scope.
  const fields = [...page.matchAll(/name="([^"]+)" value="([^"]*)"/g)].map(
    (m) => [m[1]!, m[2]!.replaceAll('&#34;', '"')] as [string, string],
  );
  const form = Object.fromEntries(fields);
  const authorize = new URL(url);
  const body = new URLSearchParams(fields.filter(([k]) => k !== 'account' || !opts.account));
  if (opts.account) body.set('account', opts.account);
  body.set('decision', opts.decision ?? 'allow');
  const back = await fetch(`${authorize.origin}${authorize.pathname}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: body.toString(),
    redirect: 'manual',
  });
  const location = back.headers.get('location');
  if (!location)
    throw new Error(`the authorize page did not redirect (${back.status}): ${await back.text()}`);
  return { authorizeUrl: authorize, callback: new URL(location), form };
}
