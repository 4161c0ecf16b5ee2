/** Staff HTTP with a session and CSRF, and a participant's Fitbit consent as a browser would give it (benches). */

/** A client with its own cookie jar (session, CSRF) over real HTTP. */
export function httpClient(base: string, sessionCookie = '') {
  const jar = new Map<string, string>();
  if (sessionCookie) jar.set(...(sessionCookie.split('=') as [string, string]));
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const keep = (res: Response) => {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const i = pair!.indexOf('=');
      jar.set(pair!.slice(0, i), pair!.slice(i + 1));
    }
  };
  const csrf = async () => {
    const res = await fetch(`${base}/api/csrf-token`, { headers: { cookie: cookie() } });
    keep(res);
    return ((await res.json()) as { csrfToken: string }).csrfToken;
  };
  return {
    cookie,
    async post(p: string, body: unknown) {
      const token = await csrf();
      const res = await fetch(`${base}${p}`, {
        method: 'POST',
        headers: { cookie: cookie(), 'content-type': 'application/json', 'x-csrf-token': token },
        body: JSON.stringify(body ?? {}),
      });
      keep(res);
      return res;
    },
  };
}

/** The participant's consent as the browser would do it, back to the callback. */
export async function link(base: string, staff: ReturnType<typeof httpClient>, participantId: number) {
  const req = await staff.post(`/api/participantDevices/${participantId}/fitbit/consentRequest`, {});
  if (!req.ok) throw new Error(`consentRequest ${req.status}: ${await req.text()}`);
  const consent = new URL(((await req.json()) as { link: string }).link);
  const authz = await fetch(
    `${base}/api/consent/fitbit/authorizeUrl?id=${consent.searchParams.get('id')}&t=${encodeURIComponent(consent.searchParams.get('t')!)}`,
  );
  const { url } = (await authz.json()) as { url: string };
  const page = await (await fetch(url)).text();
  const form = Object.fromEntries(
    [...page.matchAll(/name="([^"]+)" value="([^"]*)"/g)].map((m) => [m[1]!, m[2]!.replaceAll('&#34;', '"')]),
  );
  const authorize = new URL(url);
  const back = await fetch(`${authorize.origin}${authorize.pathname}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ ...form, decision: 'allow' }).toString(),
    redirect: 'manual',
  });
  const callback = new URL(back.headers.get('location')!);
  const done = await httpClient(base).post('/api/fitbit-callback', {
    authCode: callback.searchParams.get('code'),
    participantId: callback.searchParams.get('state'),
  });
  if (!done.ok) throw new Error(`callback ${done.status}: ${await done.text()}`);
}
