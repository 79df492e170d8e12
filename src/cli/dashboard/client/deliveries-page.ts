import type { VNode } from 'preact'
import { useState } from 'preact/hooks'
import { adminGet, adminPost } from './admin-client.js'
import { html } from './dashboard-html.js'
import { readableBody, statusClass, virtualTime } from './display.js'
import { type LiveState, useRefresh } from './live-updates.js'

/** Events drawn at first, and added by each "Show more": the page stays light with ten thousand. */
const PAGE = 100

/** An event as `GET /events` answers it. */
interface EventJson {
  readonly id: string
  readonly type: string
  readonly account: string
  readonly mode: string
  readonly created: string
}

/** One attempt as `GET /deliveries` answers it. */
interface AttemptJson {
  readonly at: string
  readonly trigger: string
  readonly outcome: string
  readonly status: number | null
  readonly duration_ms: number
  readonly message?: string
  readonly answer?: string
}

/** A delivery (event x destination) as `GET /deliveries` answers it. */
interface DeliveryJson {
  readonly event: string
  readonly destination: string
  readonly url: string
  readonly status: 'Delivered' | 'Pending' | 'Failed'
  readonly next_attempt_at: string | null
  readonly cancelled: string | null
  readonly attempts: readonly AttemptJson[]
}

function Attempts({ attempts }: { attempts: readonly AttemptJson[] }): VNode {
  if (attempts.length === 0) return html`<p class="empty">No attempt yet.</p>`
  return html`<table>
    <thead><tr><th scope="col">#</th><th scope="col">Virtual time</th><th scope="col">Trigger</th><th scope="col">Outcome</th>
      <th scope="col">Status</th><th scope="col">Took</th><th scope="col">Answer</th></tr></thead>
    <tbody>
      ${attempts.map(
        (a, i) => html`<tr>
          <td>${i + 1}</td><td>${virtualTime(a.at)}</td><td>${a.trigger}</td><td>${a.outcome}</td>
          <td class=${statusClass(a.status)}>${a.status ?? '—'}</td><td>${a.duration_ms} ms</td>
          <td>${a.answer === undefined && a.message === undefined ? '—' : html`<pre class="answer">${a.message ?? readableBody(a.answer ?? '')}</pre>`}</td>
        </tr>`,
      )}
    </tbody>
  </table>`
}

function Delivery({ d, resend }: { d: DeliveryJson; resend: (d: DeliveryJson) => Promise<void> }): VNode {
  const [busy, setBusy] = useState(false)
  const [problem, setProblem] = useState<string | undefined>(undefined)
  const click = async () => {
    setBusy(true)
    setProblem(undefined)
    try {
      await resend(d)
    } catch (e) {
      setProblem((e as Error).message)
    } finally {
      setBusy(false)
    }
  }
  return html`<section class="destination" aria-label=${`Delivery of ${d.event} to ${d.destination}`}>
    <p><strong>${d.destination}</strong> <code>${d.url}</code> <span class=${`delivery-status ${statusClass(d.status)}`}>${d.status}</span></p>
    <p>Next automatic attempt: <span class="next-retry">${d.next_attempt_at === null ? 'none scheduled' : virtualTime(d.next_attempt_at)}</span>
      ${d.cancelled === null ? null : html` <span class="muted">(stopped: ${d.cancelled})</span>`}</p>
    <${Attempts} attempts=${d.attempts} />
    <p><button type="button" disabled=${busy} onClick=${click} aria-label=${`Resend ${d.event} to ${d.destination}`}>
      ${busy ? 'Resending…' : 'Resend'}</button>
      ${problem === undefined ? null : html` <span role="alert" class="status-bad">${problem}</span>`}</p>
  </section>`
}

/**
 * The Events and deliveries page: each event (newest first) with, per destination, every attempt
 * (virtual time, trigger, outcome, status, duration, the answer's body) and the next automatic
 * retry, and a button that resends the event to that destination (the admin API's manual resend).
 *
 * @example
 * html`<${DeliveriesPage} live=${live} />`
 */
export function DeliveriesPage({ live }: { live: LiveState }): VNode {
  const [events, setEvents] = useState<readonly EventJson[]>([])
  const [deliveries, setDeliveries] = useState<readonly DeliveryJson[]>([])
  const [status, setStatus] = useState('')
  const [type, setType] = useState('')
  const [error, setError] = useState<string | undefined>(undefined)
  const [limit, setLimit] = useState(PAGE)
  const load = async () => {
    try {
      const [e, d] = await Promise.all([
        adminGet<{ data: EventJson[] }>('/events'),
        adminGet<{ data: DeliveryJson[] }>('/deliveries'),
      ])
      setEvents(e.data)
      setDeliveries(d.data)
      setError(undefined)
    } catch (e) {
      setError((e as Error).message)
    }
  }
  useRefresh(load, [live.changes, live.resets])
  const resend = async (d: DeliveryJson) => {
    await adminPost('/deliveries/resend', { event: d.event, destination: d.destination })
    await load()
  }
  const byEvent = new Map<string, DeliveryJson[]>()
  for (const d of deliveries) byEvent.set(d.event, [...(byEvent.get(d.event) ?? []), d])
  const shown = [...events]
    .reverse()
    .filter((e) => type === '' || e.type.includes(type))
    .filter((e) => status === '' || (byEvent.get(e.id) ?? []).some((d) => d.status === status))
  return html`<section aria-labelledby="events-title">
    <h2 id="events-title">Events and deliveries</h2>
    <form class="filters" role="search" onSubmit=${(e: Event) => e.preventDefault()}>
      <label>Delivery status
        <select value=${status} onChange=${(e: Event) => setStatus((e.target as HTMLSelectElement).value)}>
          <option value="">Any</option><option value="Failed">Failed</option><option value="Pending">Pending</option>
          <option value="Delivered">Delivered</option>
        </select></label>
      <label>Event type contains
        <input type="search" value=${type} onInput=${(e: Event) => setType((e.target as HTMLInputElement).value)} /></label>
      <p class="muted" aria-live="polite">${shown.length} of ${events.length} events</p>
    </form>
    ${error === undefined ? null : html`<p role="alert" class="status-bad">${error}</p>`}
    ${shown.slice(0, limit).map(
      (e) => html`<article class="event" key=${e.id} aria-labelledby=${`event-${e.id}`}>
        <h3 id=${`event-${e.id}`}><span>${e.type}</span> <code>${e.id}</code>
          <span class="muted">${e.account} ${e.mode} · ${virtualTime(e.created)}</span></h3>
        ${(byEvent.get(e.id) ?? []).map((d) => html`<${Delivery} key=${d.destination} d=${d} resend=${resend} />`)}
        ${byEvent.has(e.id) ? null : html`<p class="empty">No destination listens for this event.</p>`}
      </article>`,
    )}
    ${
      shown.length > limit
        ? html`<p><button type="button" onClick=${() => setLimit(limit + PAGE)}>Show ${Math.min(PAGE, shown.length - limit)} more of ${shown.length - limit}</button></p>`
        : null
    }
    ${events.length === 0 ? html`<p class="empty">No events yet.</p>` : null}
  </section>`
}
