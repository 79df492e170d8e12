import { CARD_CHOICES, type CardChoice } from './test-cards.js'

/**
 * Text made safe inside HTML (element content and quoted attributes).
 *
 * @example
 * esc('<b>"x"</b>') // '&lt;b&gt;&quot;x&quot;&lt;/b&gt;'
 */
export function esc(value: unknown): string {
  return String(value ?? '')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;')
}

/**
 * A value made safe inside an inline `<script>` as a JS literal (no `</script>` can end it).
 *
 * @example
 * jsValue({ id: 'pi_1' }) // '{"id":"pi_1"}'
 */
export function jsValue(value: unknown): string {
  return JSON.stringify(value ?? null).replaceAll('<', '\\u003c')
}

/**
 * An amount in minor units as the page shows it.
 *
 * @example
 * money(2000, 'usd') // '20.00 USD'
 */
export function money(amount: unknown, currency: unknown): string {
  return `${(Number(amount ?? 0) / 100).toFixed(2)} ${String(currency ?? '').toUpperCase()}`
}

/**
 * The test-card radio buttons every page offers (the first checked), and the test bank accounts
 * given (a checkout page in `payment` mode offers those of its currency). A card whose issuer
 * challenges is marked `data-challenge`, so the page can show the 3-D Secure step.
 *
 * @example
 * cardChoices('card') // '<fieldset ...><label><input type="radio" name="card" value="pm_card_visa" checked> ...'
 */
export function cardChoices(name: string, banks: readonly CardChoice[] = []): string {
  const choices = [...CARD_CHOICES, ...banks]
  const rows = choices.map(
    (c, i) =>
      `<label><input type="radio" name="${esc(name)}" value="${esc(c.token)}"${c.challenge === true ? ' data-challenge' : ''}${i === 0 ? ' checked' : ''}> ${esc(c.label)}</label><br>`,
  )
  return `<fieldset id="cards"><legend>Test card</legend>${rows.join('')}</fieldset>`
}

/**
 * A whole page: a title, the body, and a little inline script. The script posts the customer's
 * action as JSON to serve's `/__customer/actions/` (same origin), shows a refusal, or goes on.
 *
 * @example
 * page('Pay invoice', '<p>…</p>', 'document.title') // '<!doctype html>…'
 */
export function page(title: string, body: string, script = ''): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font:15px/1.4 system-ui,sans-serif;max-width:36rem;margin:2rem auto;padding:0 1rem}
fieldset{border:1px solid #ccc;margin:1rem 0}button{font:inherit;padding:.4rem 1rem;margin:.2rem}
#message{margin-top:1rem;font-weight:600}.note{color:#666;font-size:13px}</style></head>
<body><p class="note">service-sim test page: no real payment is made.</p><h1>${esc(title)}</h1>${body}
<p id="message" role="status"></p>
<script>
// A decline (402) is the provider's answer to show the customer: returned with its error, as any
// other refusal is thrown.
async function act(path, body) {
  const res = await fetch('/__customer/actions/' + path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })
  const json = await res.json()
  if (!res.ok && !(res.status === 402 && json.error)) throw new Error(json.error ? json.error.message : 'refused')
  return json
}
function say(text, code) {
  const m = document.getElementById('message')
  m.textContent = text
  if (code) m.dataset.code = code; else delete m.dataset.code
}
// A decline as the provider's page words it: its own message, its code kept for tests.
function declined(error) { say(error.message, error.decline_code || error.code) }
function picked() { const c = document.querySelector('#cards input:checked'); return c ? c.value : 'pm_card_visa' }
${script}
</script></body></html>
`
}
