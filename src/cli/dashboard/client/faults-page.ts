import type { VNode } from 'preact'
import { useState } from 'preact/hooks'
import { ActionButton } from './action-button.js'
import { adminGet, adminPost } from './admin-client.js'
import { html } from './dashboard-html.js'
import { virtualTime } from './display.js'
import { type LiveState, useRefresh } from './live-updates.js'

/** `GET /faults`: the rates in force, what fired, every kind. */
interface FaultsJson {
  readonly rates: Readonly<Record<string, number>>
  readonly fired: Readonly<Record<string, number>>
  readonly kinds: readonly string[]
}

/** `GET /faults/log`: the policy in force and the newest decisions. */
interface LogJson {
  readonly policy: { readonly origin: string; readonly schedule: readonly unknown[]; readonly params: Record<string, unknown> }
  readonly total: number
  readonly log: readonly (Record<string, unknown> & { seq: number; at: string; entry: string })[]
}

const value = (set: (v: string) => void) => (e: Event) => set((e.target as HTMLInputElement | HTMLSelectElement).value)

/** What a log entry says beyond its time and kind: its label, source, step and details. */
function detail(e: Record<string, unknown>): string {
  const { seq: _seq, at: _at, entry: _entry, kind: _kind, label: _label, source: _source, ...rest } = e
  return Object.keys(rest).length === 0 ? '' : JSON.stringify(rest)
}

function Inject({ kinds, done }: { kinds: readonly string[]; done: () => Promise<void> }): VNode {
  const [kind, setKind] = useState('server_error')
  const [count, setCount] = useState('1')
  const [operation, setOperation] = useState('')
  const [receiver, setReceiver] = useState('')
  const body = () => ({
    fault: kind,
    count: Number(count),
    ...(operation === '' ? {} : { operation }),
    ...(receiver === '' ? {} : { receiver }),
  })
  return html`<form class="actions" aria-label="Inject a fault" onSubmit=${(e: Event) => e.preventDefault()}>
    <label>Fault<select value=${kind} onChange=${value(setKind)}>${kinds.map((k) => html`<option value=${k}>${k}</option>`)}</select></label>
    <label>Times<input type="number" min="1" max="1000" value=${count} onInput=${value(setCount)} /></label>
    <label>Operation or event type starts with<input value=${operation} onInput=${value(setOperation)} placeholder="customers.create" /></label>
    <label>Receiver (destination id or URL)<input value=${receiver} onInput=${value(setReceiver)} /></label>
    <${ActionButton} label="Inject" name="Inject the fault" act=${() => adminPost('/faults/inject', body()).then(done)} done="Armed." />
  </form>`
}

function Rates({ faults, done }: { faults: FaultsJson; done: () => Promise<void> }): VNode {
  const [kind, setKind] = useState('rate_limit')
  const [rate, setRate] = useState('0.1')
  const inForce = Object.entries(faults.rates).filter(([, r]) => r > 0)
  return html`<div>
    ${
      inForce.length === 0
        ? html`<p class="empty">No fault is drawn by rate.</p>`
        : html`<table aria-label="Rates in force"><thead><tr><th scope="col">Fault</th><th scope="col">Rate</th></tr></thead>
          <tbody>${inForce.map(([k, r]) => html`<tr><td>${k}</td><td>${r}</td></tr>`)}</tbody></table>`
    }
    <form class="actions" aria-label="Set a rate" onSubmit=${(e: Event) => e.preventDefault()}>
      <label>Fault drawn by rate<select value=${kind} onChange=${value(setKind)}>${faults.kinds.map((k) => html`<option value=${k}>${k}</option>`)}</select></label>
      <label>Rate (0 to 1)<input type="number" min="0" max="1" step="0.05" value=${rate} onInput=${value(setRate)} /></label>
      <${ActionButton} label="Set the rate" act=${() => adminPost('/faults/rates', { rates: { [kind]: Number(rate) } }).then(done)} />
      <${ActionButton} label="Clear every fault" act=${() => adminPost('/faults/clear', {}).then(done)} />
    </form>
  </div>`
}

/**
 * The Faults page: the policy in force (its origin, the rates drawn, the schedule), controls to
 * set a rate, clear them or inject one fault now, how often each fired, and the log of every
 * fault decision and rate change, newest first.
 *
 * @example
 * html`<${FaultsPage} live=${live} />`
 */
export function FaultsPage({ live }: { live: LiveState }): VNode {
  const [faults, setFaults] = useState<FaultsJson | undefined>(undefined)
  const [log, setLog] = useState<LogJson | undefined>(undefined)
  const [error, setError] = useState<string | undefined>(undefined)
  const load = async () => {
    try {
      const [f, l] = await Promise.all([adminGet<FaultsJson>('/faults'), adminGet<LogJson>('/faults/log')])
      setFaults(f)
      setLog(l)
      setError(undefined)
    } catch (e) {
      setError((e as Error).message)
    }
  }
  useRefresh(load, [live.changes, live.resets])
  const fired = Object.entries(faults?.fired ?? {})
  return html`<section aria-labelledby="faults-title">
    <h2 id="faults-title">Faults</h2>
    ${error === undefined ? null : html`<p role="alert" class="status-bad">${error}</p>`}
    <section class="related" aria-labelledby="policy-title">
      <h3 id="policy-title">Policy in force <span class="muted">(${log?.policy.origin ?? '—'}, ${log?.policy.schedule.length ?? 0} scheduled)</span></h3>
      ${faults === undefined ? null : html`<${Rates} faults=${faults} done=${load} />`}
    </section>
    <section class="related" aria-labelledby="inject-title">
      <h3 id="inject-title">Inject one now</h3>
      <${Inject} kinds=${faults?.kinds ?? []} done=${load} />
    </section>
    <section class="related" aria-labelledby="fired-title">
      <h3 id="fired-title">Fired</h3>
      ${
        fired.length === 0
          ? html`<p class="empty">No fault has fired.</p>`
          : html`<table aria-label="Fired"><thead><tr><th scope="col">Label</th><th scope="col">Times</th></tr></thead>
          <tbody>${fired.map(([label, n]) => html`<tr><td>${label}</td><td>${n}</td></tr>`)}</tbody></table>`
      }
    </section>
    <section class="related" aria-labelledby="log-title">
      <h3 id="log-title">Log <span class="muted">(${log?.total ?? 0} entries, newest first)</span></h3>
      <table aria-label="Fault log"><thead><tr><th scope="col">Virtual time</th><th scope="col">Entry</th><th scope="col">Fault</th>
        <th scope="col">Source</th><th scope="col">Detail</th></tr></thead>
        <tbody>${(log?.log ?? []).map(
          (e) => html`<tr key=${e.seq}><td class="time">${virtualTime(e.at)}</td><td>${e.entry}</td>
            <td>${String(e.label ?? e.kind ?? '')}</td><td>${String(e.source ?? '')}</td><td><code>${detail(e)}</code></td></tr>`,
        )}</tbody></table>
    </section>
  </section>`
}
