import type { VNode } from 'preact'
import { useState } from 'preact/hooks'
import { ActionButton } from './action-button.js'
import { adminGet, adminPost } from './admin-client.js'
import { html } from './dashboard-html.js'
import { virtualTime } from './display.js'
import { type LiveState, useRefresh } from './live-updates.js'

/** A destination as `GET /destinations` answers it. */
interface DestinationJson {
  readonly id: string
  readonly account: string
  readonly mode: string
  readonly type: string
  readonly url: string
  readonly status: 'enabled' | 'disabled'
  readonly event_payload: string
  readonly enabled_events: readonly string[]
  readonly signing_secrets: readonly string[]
}

/** A destination's health as `GET /destinations/health` answers it. */
interface HealthJson {
  readonly destination: string
  readonly attempts: number
  readonly succeeded: number
  readonly success_ratio: number | null
  readonly pending: number
  readonly last_failure: {
    readonly at: string
    readonly event: string
    readonly status: number | null
    readonly outcome: string
    readonly message: string | null
  } | null
}

const OVERLAPS = [
  { value: '', label: 'at once' },
  { value: '1h', label: 'after 1 hour' },
  { value: '24h', label: 'after 24 hours' },
]

function Health({ h }: { h: HealthJson | undefined }): VNode {
  if (h === undefined || h.attempts === 0) return html`<p class="empty">No attempt yet.</p>`
  const ratio = h.success_ratio === null ? '—' : `${Math.round(h.success_ratio * 1000) / 10}%`
  const f = h.last_failure
  return html`<dl class="health">
    <dt>Succeeded</dt><dd><span class=${(h.success_ratio ?? 0) >= 0.95 ? 'status-ok' : 'status-bad'}>${ratio}</span> of ${h.attempts} attempts</dd>
    <dt>Pending deliveries</dt><dd>${h.pending}</dd>
    <dt>Last failure</dt><dd>${
      f === null
        ? 'none'
        : html`${virtualTime(f.at)} · <code>${f.event}</code> · <span class="status-bad">${f.status ?? f.outcome}</span>${f.message === null ? '' : ` · ${f.message}`}`
    }</dd>
  </dl>`
}

function Destination({ d, h, reload }: { d: DestinationJson; h: HealthJson | undefined; reload: () => Promise<void> }): VNode {
  const [overlap, setOverlap] = useState('')
  const after = (p: Promise<unknown>) => p.then(reload)
  const roll = () => after(adminPost(`/destinations/${d.id}/roll_secret`, overlap === '' ? {} : { overlap }))
  const toggle = () =>
    after(adminPost(`/destinations/${d.id}/status`, { status: d.status === 'enabled' ? 'disabled' : 'enabled' }))
  const ping = () => after(adminPost(`/destinations/${d.id}/test_send`, {}))
  return html`<article class="event" aria-labelledby=${`dest-${d.id}`}>
    <h3 id=${`dest-${d.id}`}><code>${d.id}</code> <span>${d.url || d.type}</span>
      <span class=${`destination-status ${d.status === 'enabled' ? 'status-ok' : 'status-bad'}`}>${d.status === 'enabled' ? 'Enabled' : 'Disabled'}</span>
      <span class="muted">${d.account} ${d.mode} · ${d.type} · ${d.event_payload}</span></h3>
    <h4>Listens for</h4>
    <p class="events-list">${d.enabled_events.map((e) => html`<code>${e}</code> `)}</p>
    <h4>Signing secrets</h4>
    <ul class="secrets" aria-label=${`Signing secrets of ${d.id}`}>${d.signing_secrets.map((s) => html`<li><code>${s}</code></li>`)}</ul>
    <h4>Delivery health</h4>
    <${Health} h=${h} />
    <div class="actions">
      <label>Old secret expires
        <select value=${overlap} onChange=${(e: Event) => setOverlap((e.target as HTMLSelectElement).value)}>
          ${OVERLAPS.map((o) => html`<option value=${o.value}>${o.label}</option>`)}
        </select></label>
      <${ActionButton} label="Roll the signing secret" name=${`Roll the signing secret of ${d.id}`} act=${roll} done="Rolled." />
      <${ActionButton} label=${d.status === 'enabled' ? 'Disable' : 'Enable'} name=${`${d.status === 'enabled' ? 'Disable' : 'Enable'} ${d.id}`} act=${toggle} />
      <${ActionButton} label="Send a test ping" name=${`Send a test ping to ${d.id}`} act=${ping} done="Sent: see Events and deliveries." />
    </div>
  </article>`
}

/**
 * The Webhook endpoints page: every destination with its URL, status, the events it listens for,
 * its signing secrets (with a roll) and its delivery health (success ratio, pending deliveries,
 * last failure); buttons disable or enable it and send it a test ping.
 *
 * @example
 * html`<${EndpointsPage} live=${live} />`
 */
export function EndpointsPage({ live }: { live: LiveState }): VNode {
  const [destinations, setDestinations] = useState<readonly DestinationJson[]>([])
  const [health, setHealth] = useState<ReadonlyMap<string, HealthJson>>(new Map())
  const [error, setError] = useState<string | undefined>(undefined)
  const load = async () => {
    try {
      const [d, h] = await Promise.all([
        adminGet<{ data: DestinationJson[] }>('/destinations'),
        adminGet<{ data: HealthJson[] }>('/destinations/health'),
      ])
      setDestinations(d.data)
      setHealth(new Map(h.data.map((x) => [x.destination, x])))
      setError(undefined)
    } catch (e) {
      setError((e as Error).message)
    }
  }
  useRefresh(load, [live.changes, live.resets])
  return html`<section aria-labelledby="endpoints-title">
    <h2 id="endpoints-title">Webhook endpoints and destinations</h2>
    ${error === undefined ? null : html`<p role="alert" class="status-bad">${error}</p>`}
    ${destinations.map((d) => html`<${Destination} key=${d.id} d=${d} h=${health.get(d.id)} reload=${load} />`)}
    ${destinations.length === 0 ? html`<p class="empty">No webhook endpoint or event destination yet.</p>` : null}
  </section>`
}
