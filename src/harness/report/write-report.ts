import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { TraceEntry } from '#kernel/index.js'
import type { RunResult } from '../scenario/run-result.js'
import { type HtmlReportOptions, renderHtml } from './render-html.js'
import { renderMarkdown } from './render-markdown.js'
import { buildReport, reportJson } from './report.js'

/**
 * Writes `report.json`, `report.md` and `report.html` of a run to `<root>/<scenario>/<seed>/` and
 * returns that directory. Pass the run's `trace` so what the runner did not record (a harness
 * replay's delivery attempts) is read from it, and for a counterexample its file, which the page
 * says how to step through.
 *
 * @example
 * const dir = await writeReport(result, 'reports') // 'reports/hello/42'
 */
export async function writeReport(
  result: RunResult,
  root: string,
  trace?: readonly TraceEntry[],
  html: HtmlReportOptions = {},
): Promise<string> {
  const dir = join(root, result.scenario, result.seed)
  mkdirSync(dir, { recursive: true })
  const report = buildReport(result, trace)
  writeFileSync(join(dir, 'report.json'), reportJson(report))
  writeFileSync(join(dir, 'report.md'), renderMarkdown(report))
  writeFileSync(join(dir, 'report.html'), await renderHtml(report, html))
  return dir
}
