import type { VNode } from 'preact'
import { useState } from 'preact/hooks'
import { ActionButton } from './action-button.js'
import { adminGet, adminPost } from './admin-client.js'
import { html } from './dashboard-html.js'
import { virtualTime } from './display.js'
import { type LiveState, useRefresh } from './live-updates.js'

/** `GET /scheduler`: virtual now, how much work is pending, the next tasks. */
interface QueueJson {
  readonly now: string
  readonly pending: number
  readonly next: readonly { readonly due: string; readonly label: string; readonly args: unknown }[]
}

/** A test clock as `GET /test_clocks` answers it. */
interface TestClockJson {
  readonly id: string
  readonly name: string | null
  readonly frozen_time: number
  readonly status: string
  readonly account: string
  readonly mode: string
}

/** A `datetime-local` value (UTC here) as the ISO date the admin API takes. */
const asUtc = (local: string): string => (local.length === 16 ? `${local}:00Z` : `${local}Z`)

const inputValue = (set: (v: string) => void) => (e: Event) => set((e.target as HTMLInputElement).value)

function TimeTravel({ now, done }: { now: string | undefined; done: () => Promise<void> }): VNode {
  const [by, setBy] = useState('1h')
  const [to, setTo] = useState('')
  return html`<section class="related" aria-labelledby="time-title">
    <h3 id="time-title">Virtual time</h3>
    <p class="now" aria-live="polite"><strong>${now === undefined ? '—' : virtualTime(now)}</strong> UTC</p>
    <div class="actions">
      <label>Advance by (15m, 2d, 1h30m)<input value=${by} onInput=${inputValue(setBy)} /></label>
      <${ActionButton} label="Advance" name="Advance the clock by the duration" act=${() => adminPost('/clock/advance', { duration: by }).then(done)} />
      <label>Advance to (UTC)<input type="datetime-local" step="1" value=${to} onInput=${inputValue(setTo)} /></label>
      <${ActionButton} label="Go" name="Go: advance the clock to the date" act=${() => adminPost('/clock/advance_to', { to: asUtc(to) }).then(done)} />
    </div>
  </section>`
}

function TestClock({ c, done }: { c: TestClockJson; done: () => Promise<void> }): VNode {
  const [by, setBy] = useState('30d')
  return html`<tr>
    <td><a href=${`#objects/${c.id}`}>${c.id}</a></td><td>${c.name ?? ''}</td>
    <td>${virtualTime(c.frozen_time * 1000)}</td><td>${c.status}</td><td>${c.account} ${c.mode}</td>
    <td><label class="inline">Advance ${c.id} by <input size="6" value=${by} onInput=${inputValue(setBy)} /></label>
      <${ActionButton} label="Advance" name=${`Advance test clock ${c.id}`} act=${() => adminPost(`/test_clocks/${c.id}/advance`, { duration: by }).then(done)} /></td>
  </tr>`
}

/**
 * The Clock and triggers page: the virtual time with time travel by a duration or to a date, the
 * test clocks (each advanced on its own), the pending work of the service in the order it falls
 * due, and a button per trigger recipe (the API calls that cause the event).
 *
 * @example
 * html`<${ClockPage} live=${live} />`
 */
export function ClockPage({ live }: { live: LiveState }): VNode {
  const [queue, setQueue] = useState<QueueJson | undefined>(undefined)
  const [clocks, setClocks] = useState<readonly TestClockJson[]>([])
  const [recipes, setRecipes] = useState<readonly string[]>([])
  const [error, setError] = useState<string | undefined>(undefined)
  const load = async () => {
    try {
      const [q, c, r] = await Promise.all([
        adminGet<QueueJson>('/scheduler?limit=200'),
        adminGet<{ data: TestClockJson[] }>('/test_clocks'),
        recipes.length > 0 ? Promise.resolve({ data: recipes }) : adminGet<{ data: string[] }>('/triggers'),
      ])
      setQueue(q)
      setClocks(c.data)
      setRecipes(r.data)
      setError(undefined)
    } catch (e) {
      setError((e as Error).message)
    }
  }
  useRefresh(load, [live.changes, live.resets])
  return html`<section aria-labelledby="clock-title">
    <h2 id="clock-title">Clock and triggers</h2>
    ${error === undefined ? null : html`<p role="alert" class="status-bad">${error}</p>`}
    <${TimeTravel} now=${queue?.now} done=${load} />
    <section class="related" aria-labelledby="clocks-title">
      <h3 id="clocks-title">Test clocks</h3>
      ${
        clocks.length === 0
          ? html`<p class="empty">No test clock.</p>`
          : html`<table><thead><tr><th scope="col">Id</th><th scope="col">Name</th><th scope="col">Frozen time</th>
          <th scope="col">Status</th><th scope="col">Account</th><th scope="col">Advance</th></tr></thead>
          <tbody>${clocks.map((c) => html`<${TestClock} key=${c.id} c=${c} done=${load} />`)}</tbody></table>`
      }
    </section>
    <section class="related" aria-labelledby="queue-title">
      <h3 id="queue-title">Pending work <span class="muted">(${queue?.pending ?? 0} tasks)</span></h3>
      ${
        (queue?.next.length ?? 0) === 0
          ? html`<p class="empty">Nothing is due.</p>`
          : html`<table aria-labelledby="queue-title"><thead><tr><th scope="col">Due</th><th scope="col">Work</th><th scope="col">Of</th></tr></thead>
          <tbody>${queue?.next.map(
            (t) => html`<tr><td class="time">${virtualTime(t.due)}</td><td><code>${t.label}</code></td>
              <td><code>${t.args === null ? '' : JSON.stringify(t.args)}</code></td></tr>`,
          )}</tbody></table>`
      }
    </section>
    <section class="related" aria-labelledby="triggers-title">
      <h3 id="triggers-title">Trigger an event</h3>
      <p class="muted">Each runs the API calls that cause the event, as <code>service-sim trigger</code> does.</p>
      <ul class="triggers">${recipes.map(
        (type) => html`<li><${ActionButton} label=${type} name=${`Trigger ${type}`}
          act=${() => adminPost('/events/trigger', { type }).then(load)} done="Triggered." /></li>`,
      )}</ul>
    </section>
  </section>`
}
