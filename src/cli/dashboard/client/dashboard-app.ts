import { render, type VNode } from 'preact'
import { useEffect, useState } from 'preact/hooks'
import { ClockPage } from './clock-page.js'
import { COUNTEREXAMPLE_HASH, CounterexamplePage } from './counterexample-page.js'
import { html } from './dashboard-html.js'
import { DeliveriesPage } from './deliveries-page.js'
import { EndpointsPage } from './endpoints-page.js'
import { FaultsPage } from './faults-page.js'
import { type LiveState, useLiveUpdates } from './live-updates.js'
import { ObjectsPage } from './objects-page.js'
import { RequestsPage } from './requests-page.js'

/** A page of the dashboard: the fragment that names it, its title, and what it shows. */
interface Page {
  readonly hash: string
  readonly title: string
  /** `hash`: the whole fragment, which may name what the page shows after a slash. */
  readonly view: (props: { live: LiveState; hash: string }) => VNode
}

const PAGES: readonly Page[] = [
  { hash: '#requests', title: 'Requests', view: RequestsPage },
  { hash: '#events', title: 'Events and deliveries', view: DeliveriesPage },
  { hash: '#endpoints', title: 'Webhook endpoints', view: EndpointsPage },
  { hash: '#objects', title: 'Objects', view: ObjectsPage },
  { hash: '#clock', title: 'Clock and triggers', view: ClockPage },
  { hash: '#faults', title: 'Faults', view: FaultsPage },
  { hash: COUNTEREXAMPLE_HASH, title: 'Counterexample', view: CounterexamplePage },
]

// A page's own address may follow its name (`#objects/cus_1`, `#counterexample/<file>`): what it shows.
const pageOf = (hash: string): Page => PAGES.find((p) => p.hash === hash || hash.startsWith(`${p.hash}/`)) ?? (PAGES[0] as Page)

/** Follows the address's fragment. */
function useHash(): string {
  const [hash, setHash] = useState(location.hash)
  useEffect(() => {
    const follow = () => setHash(location.hash)
    addEventListener('hashchange', follow)
    return () => removeEventListener('hashchange', follow)
  }, [])
  return hash
}

/**
 * The dashboard: a navigation between its pages (the address's fragment names the page, so the
 * back button and a bookmark work), the live stream's state, and the page shown.
 *
 * @example
 * render(html`<${Dashboard} />`, document.getElementById('app')!)
 */
export function Dashboard(): VNode {
  const hash = useHash()
  const live = useLiveUpdates()
  const page = pageOf(hash)
  useEffect(() => {
    document.title = `${page.title} · service-sim dashboard`
  }, [page])
  return html`<header>
      <h1>service-sim</h1>
      <nav aria-label="Dashboard pages"><ul>
        ${PAGES.map((p) => html`<li><a href=${p.hash} aria-current=${p === page ? 'page' : undefined}>${p.title}</a></li>`)}
      </ul></nav>
      <span class="live" role="status">${live.connected ? 'Live' : 'Reconnecting…'}</span>
    </header>
    <main>
      <${page.view} live=${live} hash=${hash} />
    </main>`
}

/**
 * The dashboard `service-sim open` serves: the step-through of counterexample files only, with
 * nothing live (there is no running simulator behind it).
 *
 * @example
 * render(html`<${CounterexampleDashboard} />`, document.getElementById('app')!)
 */
export function CounterexampleDashboard(): VNode {
  const hash = useHash()
  useEffect(() => {
    document.title = 'Counterexample · service-sim dashboard'
  }, [])
  return html`<header><h1>service-sim</h1><span class="live">read-only: a replayed counterexample</span></header>
    <main><${CounterexamplePage} hash=${hash} /></main>`
}

const root = document.getElementById('app')
if (root !== null) {
  root.textContent = ''
  const mode = document.body.dataset.mode
  render(mode === 'counterexample' ? html`<${CounterexampleDashboard} />` : html`<${Dashboard} />`, root)
}
