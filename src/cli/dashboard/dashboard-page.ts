import { DASHBOARD_STYLE } from './dashboard-style.js'
import { DASHBOARD_SCRIPT } from './generated/dashboard-script.js'

/** An answer of the dashboard's own files: status, headers and text. */
export interface DashboardAnswer {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly text: string
}

// The page runs only its own script and talks only to this server: no request leaves the machine,
// and no other site may frame it (its buttons act on the simulation).
const SECURITY = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
}

/**
 * The page's frame. `mode` tells the page what serves it: `serve` (every page, live), or
 * `counterexample` (`service-sim open`: the step-through of counterexample files, nothing live).
 */
const shell = (mode: DashboardMode) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>service-sim dashboard</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/__dashboard/app.css">
</head>
<body data-mode="${mode}">
<div id="app"><p>Loading the dashboard…</p></div>
<noscript>The dashboard needs JavaScript; the same data is in the admin API under /__sim/.</noscript>
<script type="module" src="/__dashboard/app.js"></script>
</body>
</html>
`

/**
 * What serves the dashboard: `serve` (its pages, live), or `open` (a counterexample's step-through).
 *
 * @example
 * dashboardFile('/__dashboard', 'counterexample')?.text.includes('data-mode="counterexample"') // true
 */
export type DashboardMode = 'serve' | 'counterexample'

/**
 * The dashboard's page, script or style sheet for a GET of `pathname`, or undefined for a path it
 * does not serve. The script is the bundled page code (its UI library included), so the browser
 * loads nothing from elsewhere.
 *
 * @example
 * dashboardFile('/__dashboard')?.headers['Content-Type'] // 'text/html; charset=utf-8'
 */
export function dashboardFile(pathname: string, mode: DashboardMode = 'serve'): DashboardAnswer | undefined {
  if (pathname === '/__dashboard' || pathname === '/__dashboard/')
    return { status: 200, headers: { ...SECURITY, 'Content-Type': 'text/html; charset=utf-8' }, text: shell(mode) }
  if (pathname === '/__dashboard/app.js')
    return { status: 200, headers: { ...SECURITY, 'Content-Type': 'text/javascript; charset=utf-8' }, text: DASHBOARD_SCRIPT }
  if (pathname === '/__dashboard/app.css')
    return { status: 200, headers: { ...SECURITY, 'Content-Type': 'text/css; charset=utf-8' }, text: DASHBOARD_STYLE }
  return undefined
}
