import { deliveryRows } from './delivery-table.js'
import type { Report } from './report.js'

const esc = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ')

/**
 * `report.md`: verdicts first (for CI summaries), then outcomes, faults and witnesses.
 *
 * @example
 * writeFileSync('report.md', renderMarkdown(report))
 */
export function renderMarkdown(report: Report): string {
  const lines: string[] = []
  const violated = report.verdicts.filter((v) => !v.ok)
  lines.push(`# ${report.scenario} (seed ${report.seed}): ${report.ok ? 'all expectations hold' : `${violated.length} violated`}`)
  lines.push('')
  if (report.description) lines.push(report.description, '')
  lines.push(
    `Virtual time ${report.start} to ${report.end}; ${report.summary.steps} steps, ${report.summary.requests} requests, ${report.summary.deliveries} delivery attempts seen by receivers, ${report.summary.faults} fault decisions. Trace \`${report.trace.hash.slice(0, 16)}\` (${report.trace.length} entries).`,
  )
  lines.push('', '## Verdicts', '', '| | Expectation | Result |', '| --- | --- | --- |')
  for (const v of report.verdicts) lines.push(`| ${v.ok ? '✅' : '❌'} | ${esc(v.name)} | ${esc(v.message)} |`)
  if (report.verdicts.length === 0) lines.push('| | (none) | |')
  lines.push('', '## Request outcomes', '', '| Outcome | Count |', '| --- | --- |')
  for (const [k, n] of Object.entries(report.summary.outcomes)) lines.push(`| ${esc(k)} | ${n} |`)
  const perReceiver = deliveryRows(report)
  if (perReceiver.length > 0) {
    lines.push(
      '',
      '## Deliveries per receiver',
      '',
      '| Receiver | Attempts | First tries | Retries | Acknowledged | Refused | No connection |',
      '| --- | --- | --- | --- | --- | --- | --- |',
    )
    for (const r of perReceiver)
      lines.push(
        `| ${esc(r.receiver)} | ${r.attempts} | ${r.first} | ${r.retries} | ${r.acknowledged} | ${r.refused} | ${r.unreachable} |`,
      )
  }
  if (report.faults.length > 0) {
    lines.push('', '## Fault decisions', '', '| Step | Fault | Source | Applied | Note |', '| --- | --- | --- | --- | --- |')
    for (const f of report.faults)
      lines.push(`| ${f.step} | ${f.fault} | ${f.source} | ${f.applied ? 'yes' : 'no'} | ${esc(f.note)} |`)
  }
  if (violated.length > 0) {
    lines.push('', '## Witnesses', '')
    for (const v of violated) {
      lines.push(`### ${v.name}`, '', v.message, '')
      if (v.witness !== undefined) lines.push('```json', JSON.stringify(v.witness, null, 2), '```', '')
    }
  }
  lines.push('', `Replay: \`service-sim replay <scenario file> --seed ${report.seed}\``, '')
  return lines.join('\n')
}
