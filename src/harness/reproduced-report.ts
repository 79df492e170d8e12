import { type Violation, violation } from './checkers/violation.js'

/** Runs of a counterexample for its report, for an app that answers differently each time. */
const TRIES = 3

/**
 * The report of a counterexample the search found. A deterministic app fails it again at once; an
 * app that is not (on a port, timing on the wall clock, state kept between runs, randomness of its
 * own) may pass a run of it, so it is run up to three times, and one that never fails again is
 * reported with the single violation `checker` (e.g. `flow.not_reproduced`) saying so, rather than
 * as a failure with no reason.
 *
 * @example
 * const report = await reproducedReport('flow.not_reproduced', () => runFlow(program, subject()))
 * report.violations.length > 0 // always: the found ones, or the one saying they did not come back
 */
export async function reproducedReport<R extends { readonly violations: readonly Violation[] }>(
  checker: string,
  run: () => Promise<R>,
): Promise<R> {
  let report = await run()
  for (let i = 1; i < TRIES && report.violations.length === 0; i++) report = await run()
  if (report.violations.length > 0) return report
  const message = `this program failed while the property searched, but passed ${TRIES} runs of it afterwards: the app answers the same run differently (state kept from an earlier run, work on the wall clock, a race inside the app); make its reset and its state readers complete before they answer, or mount it in process to replay the run exactly`
  return { ...report, violations: [violation(checker, message, [])] }
}
