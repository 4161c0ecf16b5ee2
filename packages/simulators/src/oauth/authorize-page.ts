/** A simulated provider's consent page: plain HTML with Allow and Deny, in the provider's colour. */
const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export interface Brand {
  name: string;
  color: string;
}

export const FITBIT_BRAND: Brand = { name: 'Fitbit', color: '#00b0b9' };

export function authorizePage(p: {
  action: string;
  hidden: Record<string, string>;
  scopes: string[];
  account: string;
  brand?: Brand;
  /** Granular consent: one ticked checkbox per scope (name scope_item) instead of a plain list. */
  selectable?: Array<{ value: string; label: string }>;
}) {
  const brand = p.brand ?? FITBIT_BRAND;
  const inputs = Object.entries(p.hidden)
    .map(([k, v]) => `<input type="hidden" name="${esc(k)}" value="${esc(v)}">`)
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(brand.name)} (simulated) – Allow access</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font-family:system-ui,sans-serif;background:#f3f5f7;margin:0}header{background:${brand.color};color:#fff;padding:14px 24px;font-weight:700;font-size:20px}
main{max-width:480px;margin:32px auto;background:#fff;border-radius:8px;padding:24px;box-shadow:0 1px 4px #0002}
li{margin:4px 0}button{font-size:16px;padding:10px 22px;border-radius:20px;border:0;cursor:pointer;margin-right:8px}
.allow{background:${brand.color};color:#fff}.deny{background:#e6e9ec}.note{color:#667;font-size:13px}</style></head>
<body><header>${esc(brand.name.toLowerCase())} <span style="font-weight:400;font-size:13px">simulator</span></header><main>
<h1 style="font-size:20px">TrialWear would like to access your ${esc(brand.name)} data</h1>
<p>Signed in as simulated account <b>${esc(p.account)}</b>.</p><p>It asks for:</p>
<form method="post" action="${esc(p.action)}">${inputs}
${
  p.selectable
    ? `<ul style="list-style:none;padding-left:0">${p.selectable
        .map(
          (s, i) =>
            `<li><label><input type="checkbox" name="scope_item" value="${esc(s.value)}" checked id="scope-${i}"> ${esc(s.label)}</label></li>`,
        )
        .join('')}</ul>`
    : `<ul>${p.scopes.map((s) => `<li>${esc(s)}</li>`).join('')}</ul>`
}
<button class="allow" type="submit" name="decision" value="allow">Allow</button>
<button class="deny" type="submit" name="decision" value="deny">Deny</button></form>
<p class="note">This is a protocol-faithful simulator of the ${esc(brand.name)} API for testing and training. No real account is involved.</p>
</main></body></html>`;
}

export function authorizeErrorPage(message: string, brand: Brand = FITBIT_BRAND) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(brand.name)} (simulated) – Error</title></head>
<body style="font-family:system-ui,sans-serif;padding:24px"><h1>Authorization error</h1><p>${esc(message)}</p></body></html>`;
}
