import { render, type VNode } from 'preact'
import { useEffect, useState } from 'preact/hooks'
import { html } from './dashboard-html.js'
import { DeliveriesPage } from './deliveries-page.js'
import { useLiveUpdates } from './live-updates.js'
import { RequestsPage } from './requests-page.js'

const PAGES = [
  { hash: '#requests', title: 'Requests' },
  { hash: '#events', title: 'Events and deliveries' },
] as const

const pageOf = (hash: string) => PAGES.find((p) => p.hash === hash) ?? PAGES[0]

/**
 * The dashboard: a navigation between its pages (the address's fragment names the page, so the
 * back button and a bookmark work), the live stream's state, and the page shown.
 *
 * @example
 * render(html`<${Dashboard} />`, document.getElementById('app')!)
 */
export function Dashboard(): VNode {
  const [hash, setHash] = useState(location.hash)
  const live = useLiveUpdates()
  useEffect(() => {
    const follow = () => setHash(location.hash)
    addEventListener('hashchange', follow)
    return () => removeEventListener('hashchange', follow)
  }, [])
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
      ${page.hash === '#events' ? html`<${DeliveriesPage} live=${live} />` : html`<${RequestsPage} live=${live} />`}
    </main>`
}

const root = document.getElementById('app')
if (root !== null) {
  root.textContent = ''
  render(html`<${Dashboard} />`, root)
}
