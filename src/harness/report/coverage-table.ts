import { refuseArgument } from '../refuse-argument.js'

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

/** The known combinations not reached, as a list under the table (nothing when there are none). */
function missingList(counts: Readonly<Record<string, number>>, known: readonly string[] | undefined): string {
  if (known === undefined) return ''
  const missing = known.filter((k) => counts[k] === undefined)
  const reached = known.length - missing.length
  const items = missing.map((k) => `<li><code>${esc(k)}</code></li>`).join('')
  return `\n<p id="known">${reached} of ${known.length} known combinations reached${missing.length === 0 ? '.' : `; not reached (${missing.length}):`}</p>${missing.length === 0 ? '' : `\n<ul id="missing">${items}</ul>`}`
}

/**
 * The coverage of flow runs as an HTML table: one row per (event type, object state on arrival),
 * one column per way of arriving, each cell the runs that reached it split by where the app stood
 * (`none` / `redeployed` / `in_roll`). Keys are `type|state|fault|deploy`
 * (`FlowReport.coverage`, `FlowCheckResult.coverage`); a bare list counts one run each. With the
 * combinations the flows are known to produce (`knownFlowCombinations[property]`), the ones not
 * reached are listed under the table.
 *
 * @example
 * const html = coverageTable({ 'invoice.paid|paid|in_order|none': 12 }, knownFlowCombinations.checkDunning)
 */
export function coverageTable(coverage: Readonly<Record<string, number>> | readonly string[], known?: readonly string[]): string {
  if (!Array.isArray(coverage)) refuseArgument('coverageTable', 'coverage', coverage, 'object')
  if (known !== undefined) refuseArgument('coverageTable', 'known', known, 'array')
  const counts: Readonly<Record<string, number>> = Array.isArray(coverage)
    ? Object.fromEntries((coverage as readonly string[]).map((k) => [k, 1]))
    : (coverage as Readonly<Record<string, number>>)
  const rows = new Map<string, Map<string, Map<string, number>>>()
  const faults = new Set<string>()
  for (const [key, n] of Object.entries(counts)) {
    const [type = '', state = '', fault = '', deploy = ''] = key.split('|')
    faults.add(fault)
    const row = `${type}|${state}`
    const cells = rows.get(row) ?? new Map<string, Map<string, number>>()
    const cell = cells.get(fault) ?? new Map<string, number>()
    cell.set(deploy, (cell.get(deploy) ?? 0) + n)
    cells.set(fault, cell)
    rows.set(row, cells)
  }
  const columns = [...faults].sort()
  const body = [...rows]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([row, cells]) => {
      const [type = '', state = ''] = row.split('|')
      const tds = columns.map((f) => {
        const cell = cells.get(f)
        if (cell === undefined) return '<td class="unreached"></td>'
        const parts = ['none', 'redeployed', 'in_roll'].map((d) => String(cell.get(d) ?? 0))
        return `<td title="none / redeployed / in roll">${parts.join(' / ')}</td>`
      })
      return `<tr><td><code>${esc(type)}</code></td><td>${esc(state)}</td>${tds.join('')}</tr>`
    })
    .join('\n')
  const head = columns.map((f) => `<th>${esc(f)}</th>`).join('')
  return `<p>${Object.keys(counts).length} combinations of (event type, object state on arrival, how it arrived, where the app stood) reached. Each cell: runs with the app deployed since before the event / redeployed after it / holding the secrets from before a roll.</p>
<table id="coverage"><thead><tr><th>Event type</th><th>State on arrival</th>${head}</tr></thead><tbody>
${body}
</tbody></table>${missingList(counts, known)}`
}
