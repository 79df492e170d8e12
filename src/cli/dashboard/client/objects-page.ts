import type { VNode } from 'preact'
import { useState } from 'preact/hooks'
import { adminGet } from './admin-client.js'
import { html } from './dashboard-html.js'
import { virtualTime } from './display.js'
import { type LiveState, useRefresh } from './live-updates.js'

type Obj = Record<string, unknown> & { readonly id: string }

/** One search match as `GET /objects?q=` answers it. */
interface MatchJson {
  readonly id: string
  readonly object: string | null
  readonly account: string
  readonly mode: string | null
  readonly label: string | null
}

/** `GET /objects/{id}`: the object, whose it is, and its related objects by kind. */
interface ShownJson {
  readonly object: Obj
  readonly account: string
  readonly mode: string | null
  readonly related: Readonly<Record<string, readonly Obj[]>>
}

/** An id the service made (`cus_…`, `acct_…`, `clock_…`), as opposed to a word. */
const ID = /^"([a-z]{2,10}(?:_[a-z]+)*_[A-Za-z0-9]*[A-Z0-9][A-Za-z0-9]*)"$/
const TITLES: Readonly<Record<string, string>> = {
  payment_method: 'Payment methods',
  subscription: 'Subscriptions',
  invoice: 'Invoices',
  payment_intent: 'Payments',
  charge: 'Charges',
  refund: 'Refunds',
  dispute: 'Disputes',
  balance_transaction: 'Balance transactions',
  customer: 'Customers',
}

const link = (id: string) => html`<a href=${`#objects/${id}`}>${id}</a>`

/** An object's JSON, pretty-printed, each id in it a link to that object (values only, never keys). */
function JsonView({ value, label }: { value: unknown; label: string }): VNode {
  const parts = JSON.stringify(value, null, 2).split(/("[a-z]{2,10}(?:_[a-z]+)*_[A-Za-z0-9]*[A-Z0-9][A-Za-z0-9]*")(?!:)/)
  return html`<pre aria-label=${label}>${parts.map((p) => {
    const id = ID.exec(p)?.[1]
    return id === undefined ? p : html`"${link(id)}"`
  })}</pre>`
}

/** A few words for a related object: amount and currency, status, and what it belongs to. */
function summary(o: Obj): string {
  const amount = typeof o.amount === 'number' ? o.amount : typeof o.amount_due === 'number' ? o.amount_due : undefined
  const money = amount === undefined ? '' : `${(amount / 100).toFixed(2)} ${String(o.currency ?? '').toUpperCase()}`
  const extra = o.type ?? o.reason ?? o.email ?? o.description
  return [money, o.status, typeof extra === 'string' ? extra : undefined].filter((x) => x !== undefined && x !== '').join(' · ')
}

function InvoiceLines({ invoice }: { invoice: Obj }): VNode | null {
  const lines = (invoice.lines as { data?: Obj[] } | undefined)?.data ?? []
  if (lines.length === 0) return null
  return html`<ul class="lines" aria-label=${`Lines of ${invoice.id}`}>
    ${lines.map((l) => html`<li>${String(l.description ?? l.id)}: ${summary(l)}</li>`)}
  </ul>`
}

function Related({ kind, objects }: { kind: string; objects: readonly Obj[] }): VNode {
  const title = TITLES[kind] ?? kind
  return html`<section class="related" aria-label=${title}>
    <h3>${title} <span class="muted">(${objects.length})</span></h3>
    ${
      objects.length === 0
        ? html`<p class="empty">None.</p>`
        : html`<ul>${objects.map(
            (o) => html`<li>${link(o.id)} <span class="muted">${summary(o)} · ${virtualTime(Number(o.created ?? 0) * 1000)}</span>
              ${kind === 'invoice' ? html`<${InvoiceLines} invoice=${o} />` : null}</li>`,
          )}</ul>`
    }
  </section>`
}

function AccountView({ account }: { account: Obj }): VNode {
  const modes = account.modes as Record<string, { counts: Record<string, number>; customers: Obj[] }>
  return html`<div>
    <dl>
      <dt>Platform</dt><dd>${account.platform === null ? 'this is a platform' : link(String(account.platform))}</dd>
      <dt>API version</dt><dd>${String(account.api_version)}</dd>
      <dt>Connected accounts</dt><dd>${(account.connected as string[]).map((a) => html`${link(a)} `)}</dd>
    </dl>
    ${Object.entries(modes).map(
      ([mode, view]) => html`<section class="related" aria-label=${`${mode} mode`}>
        <h3>${mode} mode</h3>
        <table><thead><tr><th scope="col">Kind</th><th scope="col">Objects</th></tr></thead>
          <tbody>${Object.entries(view.counts).map(([k, n]) => html`<tr><td>${k}</td><td>${n}</td></tr>`)}</tbody></table>
        <${Related} kind="customer" objects=${view.customers} />
      </section>`,
    )}
  </div>`
}

/**
 * The Objects page: a search by id or by a part of an email, and the object found with whose it
 * is, its JSON (each id a link) and, for a customer, its payment methods, subscriptions, invoices
 * with their lines, payments, charges, refunds, disputes and balance transactions; for a test
 * clock, its customers, subscriptions and invoices; for an account, what it holds.
 *
 * @example
 * html`<${ObjectsPage} live=${live} hash="#objects/cus_1" />`
 */
export function ObjectsPage({ live, hash }: { live: LiveState; hash: string }): VNode {
  const id = decodeURIComponent(hash.slice('#objects/'.length))
  const [query, setQuery] = useState('')
  const [matches, setMatches] = useState<readonly MatchJson[] | undefined>(undefined)
  const [shown, setShown] = useState<ShownJson | undefined>(undefined)
  const [error, setError] = useState<string | undefined>(undefined)
  useRefresh(async () => {
    if (!hash.startsWith('#objects/') || id === '') return setShown(undefined)
    try {
      setShown(await adminGet<ShownJson>(`/objects/${encodeURIComponent(id)}`))
      setError(undefined)
    } catch (e) {
      setShown(undefined)
      setError((e as Error).message)
    }
  }, [hash, live.changes, live.resets])
  const search = async (e: Event) => {
    e.preventDefault()
    try {
      const found = (await adminGet<{ data: MatchJson[] }>(`/objects?q=${encodeURIComponent(query)}`)).data
      setMatches(found)
      setError(undefined)
      if (found.length === 1 && found[0] !== undefined) location.hash = `#objects/${found[0].id}`
    } catch (err) {
      setError((err as Error).message)
    }
  }
  const o = shown?.object
  return html`<section aria-labelledby="objects-title">
    <h2 id="objects-title">Objects</h2>
    <form class="filters" role="search" onSubmit=${search}>
      <label>Id or email
        <input type="search" value=${query} onInput=${(e: Event) => setQuery((e.target as HTMLInputElement).value)} /></label>
      <button type="submit">Search</button>
    </form>
    ${error === undefined ? null : html`<p role="alert" class="status-bad">${error}</p>`}
    ${
      matches === undefined || matches.length === 1
        ? null
        : html`<section aria-label="Search results"><p class="muted" aria-live="polite">${matches.length} found</p><ul>
          ${matches.map((m) => html`<li>${link(m.id)} <span class="muted">${m.object} · ${m.label ?? ''} · ${m.account} ${m.mode ?? ''}</span></li>`)}
        </ul></section>`
    }
    ${
      o === undefined
        ? null
        : html`<article class="object" aria-labelledby="object-title">
          <h2 id="object-title">${String(o.object)} <code>${o.id}</code> <span class="muted">${shown?.account} ${shown?.mode ?? ''}</span></h2>
          ${o.object === 'account' ? html`<${AccountView} account=${o} />` : null}
          ${Object.entries(shown?.related ?? {}).map(([kind, list]) => html`<${Related} kind=${kind} objects=${list} />`)}
          <h3>As the API shows it</h3>
          <${JsonView} value=${o} label=${`${o.id} as JSON`} />
        </article>`
    }
  </section>`
}
