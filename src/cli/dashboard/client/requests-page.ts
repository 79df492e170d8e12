import type { VNode } from 'preact'
import { useEffect, useState } from 'preact/hooks'
import { adminGet } from './admin-client.js'
import { CopyButtons, useCopyContext } from './copy-buttons.js'
import { html } from './dashboard-html.js'
import { readableBody, statusClass, virtualTime } from './display.js'
import type { LiveState } from './live-updates.js'
import type { CopyContext } from './request-copy.js'
import { type RequestJson, type RequestRow, requestRow } from './request-row.js'
import { useDrawnRows, useServerWindow, type WindowAnswer } from './server-window.js'

/** Each row's height in pixels (the style sheet fixes it): the window is computed from it. */
const ROW_HEIGHT = 33

const STATUS_CLASSES = [
  { value: '', label: 'Any status' },
  { value: '2xx', label: '2xx succeeded' },
  { value: '4xx', label: '4xx refused' },
  { value: '5xx', label: '5xx failed' },
]

/** What `GET /requests` answers: the window, and every account a request was made as. */
interface RequestsAnswer extends WindowAnswer<RequestJson> {
  readonly accounts: readonly string[]
}

/** The query of a window: its place and the filters that are set. */
function windowQuery(offset: number, limit: number, filters: Record<string, string>): string {
  const q = new URLSearchParams({ offset: String(offset), limit: String(limit) })
  for (const [name, value] of Object.entries(filters)) if (value !== '') q.set(name, value)
  return q.toString()
}

/** The opened request with its bodies, which a list's rows leave out: read when a row is opened. */
function useWholeRow(chosen: RequestRow | undefined): RequestRow | undefined {
  const [whole, setWhole] = useState<RequestRow | undefined>(undefined)
  useEffect(() => {
    setWhole(undefined)
    if (chosen === undefined) return
    let current = true
    adminGet<RequestsAnswer>(`/requests?seq=${chosen.seq}&limit=1`)
      .then((answer) => {
        const json = answer.data[0]
        if (current && json !== undefined) setWhole(requestRow(json))
      })
      .catch(() => undefined)
    return () => {
      current = false
    }
  }, [chosen?.seq])
  return whole
}

function Detail({ chosen, ctx }: { chosen: RequestRow; ctx: CopyContext | undefined }): VNode {
  const whole = useWholeRow(chosen)
  const row = whole ?? chosen
  const body = (text: string) => (whole === undefined ? 'Reading…' : readableBody(text))
  const field = (name: string, value: unknown) => html`<dt>${name}</dt><dd>${value ?? '—'}</dd>`
  return html`<section class="detail" aria-label="Request detail">
    <h2>${row.method} ${row.path}</h2>
    <dl>
      ${field('Status', html`<span class=${statusClass(row.status)}>${row.status}</span>`)}
      ${field('Operation', row.operation)} ${field('Account', row.account)} ${field('Mode', row.mode)}
      ${field('API version', row.version)} ${field('Idempotency key', row.idempotencyKey)}
      ${field('Request id', row.requestId)} ${field('Virtual time', virtualTime(row.at))} ${field('Wall time', row.wall)}
    </dl>
    ${whole === undefined ? null : html`<${CopyButtons} row=${whole} ctx=${ctx} />`}
    <h3>Request body</h3>
    <pre tabindex="0" aria-label="Request body">${body(row.requestBody)}</pre>
    <h3>Response body</h3>
    <pre tabindex="0" aria-label="Response body">${body(row.responseBody)}</pre>
  </section>`
}

function Row({ row, selected, select }: { row: RequestRow; selected: boolean; select: (row: RequestRow) => void }): VNode {
  return html`<tr class="row" aria-selected=${selected ? 'true' : 'false'}>
    <td><button type="button" onClick=${() => select(row)} aria-label=${`Show ${row.method} ${row.path} (${row.status})`}>${row.method}</button></td>
    <td><code>${row.path}</code></td>
    <td class=${statusClass(row.status)}>${row.status}</td>
    <td>${row.account ?? '—'} ${row.mode ?? ''}</td>
    <td>${row.version ?? '—'}</td>
    <td class="clip" title=${row.idempotencyKey}>${row.idempotencyKey ?? ''}</td>
    <td class="time">${virtualTime(row.at)}</td>
  </tr>`
}

/** A row not read yet: the same height, so the scroll bar and the rows around it stay put. */
const PENDING = html`<tr class="row-pending" aria-hidden="true"><td colspan="7">…</td></tr>`

/**
 * The Requests page: every API request (newest first) with its method, path, status, account and
 * mode, version, idempotency key and virtual time, filtered by status class, path and account on
 * the server; a row opens the request and response bodies beside the list. Only the rows in view
 * are read (`GET /requests`, a window at a time) and drawn, and a change reads only new rows.
 *
 * @example
 * html`<${RequestsPage} live=${live} />`
 */
export function RequestsPage({ live }: { live: LiveState }): VNode {
  const [chosen, setChosen] = useState<RequestRow | undefined>(undefined)
  const [status, setStatus] = useState('')
  const [path, setPath] = useState('')
  const [account, setAccount] = useState('')
  const ctx = useCopyContext()
  const filters = { status, path, account }
  const list = useServerWindow<RequestJson, RequestsAnswer>({
    rowHeight: ROW_HEIGHT,
    read: (offset, limit) => adminGet<RequestsAnswer>(`/requests?${windowQuery(offset, limit, filters)}&bodies=false`),
    filters: JSON.stringify(filters),
    changes: live.changes,
    resets: live.resets,
    stable: true,
  })
  const answer = list.answer
  const drawn = useDrawnRows()
  const select = (row: RequestRow) => setChosen(row)
  return html`<section aria-labelledby="requests-title">
    <h2 id="requests-title">Requests</h2>
    <form class="filters" role="search" onSubmit=${(e: Event) => e.preventDefault()}>
      <label>Status
        <select value=${status} onChange=${(e: Event) => setStatus((e.target as HTMLSelectElement).value)}>
          ${STATUS_CLASSES.map((s) => html`<option value=${s.value}>${s.label}</option>`)}
        </select></label>
      <label>Path contains
        <input type="search" value=${path} onInput=${(e: Event) => setPath((e.target as HTMLInputElement).value)} /></label>
      <label>Account
        <select value=${account} onChange=${(e: Event) => setAccount((e.target as HTMLSelectElement).value)}>
          <option value="">Any account</option>
          ${(answer?.accounts ?? []).map((a) => html`<option value=${a}>${a}</option>`)}
        </select></label>
      <p class="muted" aria-live="polite">${answer === undefined ? 'Reading…' : `${answer.total} of ${answer.count} requests`}</p>
    </form>
    ${list.error === undefined ? null : html`<p role="alert" class="status-bad">${list.error}</p>`}
    <div class=${chosen === undefined ? '' : 'split'}>
      <div class="list scroller" ref=${list.box} tabindex="0" aria-label="Requests, newest first"><table>
        <thead><tr><th scope="col">Method</th><th scope="col">Path</th><th scope="col">Status</th><th scope="col">Account</th>
          <th scope="col">Version</th><th scope="col">Idempotency key</th><th scope="col">Virtual time</th></tr></thead>
        <tbody>
          ${list.before > 0 ? html`<tr aria-hidden="true" style=${{ height: `${list.before}px` }}></tr>` : null}
          ${list.rows().map(([i, json]) => {
            if (json === undefined) return html`<${PendingRow} key=${`pending-${i}`} />`
            const selected = json.seq === chosen?.seq
            return drawn(json, selected, () => {
              const row = requestRow(json)
              return html`<${Row} key=${row.seq} row=${row} selected=${selected} select=${select} />`
            })
          })}
          ${list.after > 0 ? html`<tr aria-hidden="true" style=${{ height: `${list.after}px` }}></tr>` : null}
        </tbody>
      </table></div>
      ${chosen === undefined ? null : html`<${Detail} chosen=${chosen} ctx=${ctx} />`}
    </div>
    ${answer?.count === 0 ? html`<p class="empty">No API requests yet.</p>` : null}
  </section>`
}

const PendingRow = (): VNode => PENDING
