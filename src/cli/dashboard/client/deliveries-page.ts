import type { VNode } from 'preact'
import { useState } from 'preact/hooks'
import { adminGet, adminPost } from './admin-client.js'
import { html } from './dashboard-html.js'
import { readableBody, statusClass, virtualTime } from './display.js'
import { type LiveState, useRefresh } from './live-updates.js'
import { useDrawnRows, useServerWindow, type WindowAnswer } from './server-window.js'

/** Each event row's height in pixels (the style sheet fixes it): the window is computed from it. */
const ROW_HEIGHT = 33

/** A delivery as an event's row sums it up (`GET /events/window`). */
interface DeliverySummary {
  readonly destination: string
  readonly status: 'Delivered' | 'Pending' | 'Failed'
  readonly attempts: number
  readonly last_status: number | null
  readonly next_attempt_at: string | null
}

/** An event as `GET /events/window` answers it, its deliveries summed up. */
interface EventJson {
  readonly id: string
  readonly type: string
  readonly account: string
  readonly mode: string
  readonly created: string
  readonly deliveries: readonly DeliverySummary[]
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
          <td>${a.answer === undefined && a.message === undefined ? '—' : html`<pre class="answer" tabindex="0">${a.message ?? readableBody(a.answer ?? '')}</pre>`}</td>
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

/** One delivery in an event's row: how it stands, the last attempt's status and how many there were. */
function summary(d: DeliverySummary) {
  const last = d.attempts === 0 ? '' : ` · ${d.last_status ?? 'no answer'}${d.attempts > 1 ? ` ×${d.attempts}` : ''}`
  return html`<span class=${statusClass(d.status)} title=${d.destination}>${d.status}${last}</span> `
}

function EventRow({ e, selected, select }: { e: EventJson; selected: boolean; select: (e: EventJson) => void }): VNode {
  return html`<tr class="row" aria-selected=${selected ? 'true' : 'false'}>
    <td><button type="button" onClick=${() => select(e)} aria-label=${`Show ${e.type} ${e.id}`}>${e.type}</button></td>
    <td><code>${e.id}</code></td>
    <td>${e.account} ${e.mode}</td>
    <td class="time">${virtualTime(e.created)}</td>
    <td>${e.deliveries.length === 0 ? html`<span class="muted">no destination</span>` : e.deliveries.map(summary)}</td>
  </tr>`
}

/** The chosen event's deliveries, every attempt with the app's answers, reread on each change. */
function EventDetail({ e, live }: { e: EventJson; live: LiveState }): VNode {
  const [deliveries, setDeliveries] = useState<readonly DeliveryJson[] | undefined>(undefined)
  const [error, setError] = useState<string | undefined>(undefined)
  const load = async () => {
    try {
      setDeliveries((await adminGet<{ data: DeliveryJson[] }>(`/deliveries?event=${encodeURIComponent(e.id)}`)).data)
      setError(undefined)
    } catch (err) {
      setError((err as Error).message)
    }
  }
  useRefresh(load, [e.id, live.changes, live.resets])
  const resend = async (d: DeliveryJson) => {
    await adminPost('/deliveries/resend', { event: d.event, destination: d.destination })
    await load()
  }
  return html`<article class="event detail" aria-labelledby="event-detail-title">
    <h3 id="event-detail-title"><span>${e.type}</span> <code>${e.id}</code>
      <span class="muted">${e.account} ${e.mode} · ${virtualTime(e.created)}</span></h3>
    ${error === undefined ? null : html`<p role="alert" class="status-bad">${error}</p>`}
    ${(deliveries ?? []).map((d) => html`<${Delivery} key=${d.destination} d=${d} resend=${resend} />`)}
    ${deliveries?.length === 0 ? html`<p class="empty">No destination listens for this event.</p>` : null}
  </article>`
}

const PENDING = html`<tr class="row-pending" aria-hidden="true"><td colspan="5">…</td></tr>`
const PendingRow = (): VNode => PENDING

/**
 * The Events and deliveries page: each event (newest first) with how its deliveries stand, filtered
 * by type and delivery status on the server, only the rows in view read (`GET /events/window`) and
 * drawn; an event opens beside the list with, per destination, every attempt (virtual time,
 * trigger, outcome, status, duration, the answer's body), the next automatic retry, and a button
 * that resends the event to that destination (the admin API's manual resend).
 *
 * @example
 * html`<${DeliveriesPage} live=${live} />`
 */
export function DeliveriesPage({ live }: { live: LiveState }): VNode {
  const [status, setStatus] = useState('')
  const [type, setType] = useState('')
  const [chosen, setChosen] = useState<EventJson | undefined>(undefined)
  const list = useServerWindow<EventJson, WindowAnswer<EventJson>>({
    rowHeight: ROW_HEIGHT,
    read: (offset, limit) => {
      const q = new URLSearchParams({ offset: String(offset), limit: String(limit) })
      if (type !== '') q.set('type', type)
      if (status !== '') q.set('delivery_status', status)
      return adminGet<WindowAnswer<EventJson>>(`/events/window?${q}`)
    },
    filters: JSON.stringify([type, status]),
    changes: live.changes,
    resets: live.resets,
    stable: false,
  })
  const answer = list.answer
  const drawn = useDrawnRows()
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
      <p class="muted" aria-live="polite">${answer === undefined ? 'Reading…' : `${answer.total} of ${answer.count} events`}</p>
    </form>
    ${list.error === undefined ? null : html`<p role="alert" class="status-bad">${list.error}</p>`}
    <div class=${chosen === undefined ? '' : 'split'}>
      <div class="list scroller" ref=${list.box} tabindex="0" aria-label="Events, newest first"><table>
        <thead><tr><th scope="col">Type</th><th scope="col">Id</th><th scope="col">Account</th><th scope="col">Virtual time</th>
          <th scope="col">Deliveries</th></tr></thead>
        <tbody>
          ${list.before > 0 ? html`<tr aria-hidden="true" style=${{ height: `${list.before}px` }}></tr>` : null}
          ${list
            .rows()
            .map(([i, e]) =>
              e === undefined
                ? html`<${PendingRow} key=${`pending-${i}`} />`
                : drawn(
                    e,
                    e.id === chosen?.id,
                    () => html`<${EventRow} key=${e.id} e=${e} selected=${e.id === chosen?.id} select=${setChosen} />`,
                  ),
            )}
          ${list.after > 0 ? html`<tr aria-hidden="true" style=${{ height: `${list.after}px` }}></tr>` : null}
        </tbody>
      </table></div>
      ${chosen === undefined ? null : html`<${EventDetail} key=${chosen.id} e=${chosen} live=${live} />`}
    </div>
    ${answer?.count === 0 ? html`<p class="empty">No events yet.</p>` : null}
  </section>`
}
