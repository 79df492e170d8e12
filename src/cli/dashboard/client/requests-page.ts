import type { VNode } from 'preact'
import { useMemo, useRef, useState } from 'preact/hooks'
import { readTrace } from './admin-client.js'
import { CopyButtons, useCopyContext } from './copy-buttons.js'
import { html } from './dashboard-html.js'
import { readableBody, statusClass, virtualTime } from './display.js'
import type { LiveState } from './live-updates.js'
import { useRefresh } from './live-updates.js'
import type { CopyContext } from './request-copy.js'
import { type RequestLog, type RequestRow, requestLog } from './request-log.js'
import { useVirtualWindow } from './virtual-window.js'

/** Each row's height in pixels (the style sheet fixes it): the window is computed from it. */
const ROW_HEIGHT = 33

const STATUS_CLASSES = [
  { value: '', label: 'Any status' },
  { value: '2', label: '2xx succeeded' },
  { value: '4', label: '4xx refused' },
  { value: '5', label: '5xx failed' },
]

function matches(row: RequestRow, status: string, path: string, account: string): boolean {
  if (status !== '' && String(row.status)[0] !== status) return false
  if (path !== '' && !row.path.includes(path)) return false
  return account === '' || row.account === account
}

function Detail({ row, ctx }: { row: RequestRow; ctx: CopyContext | undefined }): VNode {
  const field = (name: string, value: unknown) => html`<dt>${name}</dt><dd>${value ?? '—'}</dd>`
  return html`<section class="detail" aria-label="Request detail">
    <h2>${row.method} ${row.path}</h2>
    <dl>
      ${field('Status', html`<span class=${statusClass(row.status)}>${row.status}</span>`)}
      ${field('Operation', row.operation)} ${field('Account', row.account)} ${field('Mode', row.mode)}
      ${field('API version', row.version)} ${field('Idempotency key', row.idempotencyKey)}
      ${field('Request id', row.requestId)} ${field('Virtual time', virtualTime(row.at))} ${field('Wall time', row.wall)}
    </dl>
    <${CopyButtons} row=${row} ctx=${ctx} />
    <h3>Request body</h3>
    <pre aria-label="Request body">${readableBody(row.requestBody)}</pre>
    <h3>Response body</h3>
    <pre aria-label="Response body">${readableBody(row.responseBody)}</pre>
  </section>`
}

function Row({ row, selected, select }: { row: RequestRow; selected: boolean; select: (seq: number) => void }): VNode {
  return html`<tr class="row" aria-selected=${selected ? 'true' : 'false'}>
    <td><button type="button" onClick=${() => select(row.seq)} aria-label=${`Show ${row.method} ${row.path} (${row.status})`}>${row.method}</button></td>
    <td><code>${row.path}</code></td>
    <td class=${statusClass(row.status)}>${row.status}</td>
    <td>${row.account ?? '—'} ${row.mode ?? ''}</td>
    <td>${row.version ?? '—'}</td>
    <td class="clip" title=${row.idempotencyKey}>${row.idempotencyKey ?? ''}</td>
    <td class="time">${virtualTime(row.at)}</td>
  </tr>`
}

/**
 * The Requests page: every API request (newest first) with its method, path, status, account and
 * mode, version, idempotency key and virtual time, filtered by status class, path and account; a
 * row opens the request and response bodies beside the list. Only the trace entries written since
 * the last read are fetched on each change.
 *
 * @example
 * html`<${RequestsPage} live=${live} />`
 */
export function RequestsPage({ live }: { live: LiveState }): VNode {
  const log = useRef<RequestLog>(requestLog())
  const seenResets = useRef(live.resets)
  const [count, setCount] = useState(0)
  const [selected, setSelected] = useState<number | undefined>(undefined)
  const [status, setStatus] = useState('')
  const [path, setPath] = useState('')
  const [account, setAccount] = useState('')
  const [error, setError] = useState<string | undefined>(undefined)
  const ctx = useCopyContext()
  useRefresh(async () => {
    if (seenResets.current !== live.resets) {
      seenResets.current = live.resets
      log.current = requestLog()
      setSelected(undefined)
    }
    try {
      log.current.add(await readTrace(log.current.next))
      setCount(log.current.rows.length)
      setError(undefined)
    } catch (e) {
      setError((e as Error).message)
    }
  }, [live.changes, live.resets])
  const rows = log.current.rows
  const accounts = useMemo(() => [...new Set(rows.flatMap((r) => (r.account === undefined ? [] : [r.account])))], [count])
  // Scrolling re-renders the page each frame: the filtered list is kept until it can change.
  const shown = useMemo(
    () => rows.filter((r) => matches(r, status, path, account)).reverse(),
    [count, status, path, account, live.resets],
  )
  const chosen = rows.find((r) => r.seq === selected)
  const win = useVirtualWindow(shown.length, ROW_HEIGHT)
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
          ${accounts.map((a) => html`<option value=${a}>${a}</option>`)}
        </select></label>
      <p class="muted" aria-live="polite">${shown.length} of ${rows.length} requests</p>
    </form>
    ${error === undefined ? null : html`<p role="alert" class="status-bad">${error}</p>`}
    <div class=${chosen === undefined ? '' : 'split'}>
      <div class="list scroller" ref=${win.box} tabindex="0" aria-label="Requests, newest first"><table>
        <thead><tr><th scope="col">Method</th><th scope="col">Path</th><th scope="col">Status</th><th scope="col">Account</th>
          <th scope="col">Version</th><th scope="col">Idempotency key</th><th scope="col">Virtual time</th></tr></thead>
        <tbody>
          ${win.before > 0 ? html`<tr aria-hidden="true" style=${{ height: `${win.before}px` }}></tr>` : null}
          ${shown
            .slice(win.start, win.end)
            .map((row) => html`<${Row} key=${row.seq} row=${row} selected=${row.seq === selected} select=${setSelected} />`)}
          ${win.after > 0 ? html`<tr aria-hidden="true" style=${{ height: `${win.after}px` }}></tr>` : null}
        </tbody>
      </table></div>
      ${chosen === undefined ? null : html`<${Detail} row=${chosen} ctx=${ctx} />`}
    </div>
    ${rows.length === 0 ? html`<p class="empty">No API requests yet.</p>` : null}
  </section>`
}
