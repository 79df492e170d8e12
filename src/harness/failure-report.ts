import { relative } from 'node:path'
import type { Violation } from './checkers/violation.js'
import { refuseArgument } from './refuse-argument.js'

/** How to run a failing property again, as its result and its printed report give it. */
export interface ReplayHint {
  /** The fast-check seed the check ran with: with the same options, the same programs in the same order. */
  readonly seed: number
  /**
   * One line that runs the failing test again from the user's own test file: under vitest,
   * `npx vitest run <file> -t '<test name>'`; otherwise the command this process was started with.
   */
  readonly command: string
  /** The counterexample's scenario file, when the check wrote one (`scenarioDir`). */
  readonly scenarioFile?: string
}

/** What {@link formatFailure} reads of a check's result. */
export interface FailedCheck {
  readonly ok: boolean
  readonly violations?: readonly Violation[] | undefined
  readonly traceHash?: string | undefined
  readonly replay?: ReplayHint | undefined
}

/** Shell-quotes `text` in single quotes. */
const quote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`

/**
 * The running vitest test (file and full name), read off vitest's expect state without importing
 * vitest; the file alone in a hook (`beforeAll`), where no test is running.
 */
function vitestTest(): { file: string; name?: string } | undefined {
  const g = globalThis as unknown as Record<symbol, unknown>
  let file: unknown
  let name: unknown
  try {
    const states = g[Symbol.for('matchers-object')] as { get?: (key: unknown) => unknown } | undefined
    const state = states?.get?.(g[Symbol.for('expect-global')]) as { testPath?: unknown; currentTestName?: unknown } | undefined
    file = state?.testPath
    name = state?.currentTestName
  } catch {
    // vitest imported by a script it does not run throws on reading its state: no test is running.
    return undefined
  }
  if (typeof file !== 'string') return undefined
  return typeof name === 'string' && name !== '' ? { file, name } : { file }
}

/**
 * The one line that runs the current test again from the user's own test file: under vitest,
 * `npx vitest run <file> -t '<full test name>'` (the file alone when run from a hook such as
 * `beforeAll`); otherwise the command this process was started with.
 *
 * @example
 * replayCommand() // "npx vitest run webhooks.test.ts -t 'handles every event once'"
 */
export function replayCommand(): string {
  const test = vitestTest()
  if (test === undefined)
    return ['node', ...process.execArgv, relative(process.cwd(), process.argv[1] ?? ''), ...process.argv.slice(2)].join(' ')
  // Run from a hook, the check belongs to no one test: the file runs it again.
  if (test.name === undefined) return `npx vitest run ${relative(process.cwd(), test.file)}`
  // vitest's -t matches the suite and test names joined by spaces (after the file's); the state
  // joins them with ' > '.
  const pattern = `${test.name
    .split(' > ')
    .join(' ')
    .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`
  return `npx vitest run ${relative(process.cwd(), test.file)} -t ${quote(pattern)}`
}

/**
 * The replay hint of a failing check run with `seed`: the command that runs the failing test
 * again (the check is deterministic for a seed) and the counterexample file, when written.
 *
 * @example
 * replayHint(42) // { seed: 42, command: "npx vitest run webhooks.test.ts -t 'handles every event once'" }
 */
export function replayHint(seed: number, scenarioFile?: string): ReplayHint {
  return { seed, command: replayCommand(), ...(scenarioFile === undefined ? {} : { scenarioFile }) }
}

/**
 * A failing check's report: its violations, the trace hash, the seed and the one-line command
 * that runs it again, and the counterexample file when one was written. The checks print it when
 * they fail; `''` for a result that passed.
 *
 * @example
 * const result = await checkWebhookReceiver(myReceiver, { headerPrefix: 'Stripe' })
 * expect(result.ok, formatFailure(result)).toBe(true)
 */
export function formatFailure(result: FailedCheck, api = 'property'): string {
  refuseArgument('formatFailure', 'result', result, 'object')
  if (result.ok) return ''
  const violations = result.violations ?? []
  const lines = [
    `service-sim: ${api} failed: ${violations.length} violation(s)${result.traceHash === undefined ? '' : ` (trace ${result.traceHash.slice(0, 16)})`}`,
    ...violations.slice(0, 5).map((v) => `  [${v.checker}] ${v.message}`),
  ]
  const hint = result.replay
  if (hint !== undefined) {
    lines.push(`  seed ${hint.seed} (the same options run the same programs; pass { seed: ${hint.seed} } if yours varies)`)
    lines.push(`  replay: ${hint.command}`)
    if (hint.scenarioFile !== undefined) lines.push(`  counterexample saved to ${hint.scenarioFile}`)
  }
  return lines.join('\n')
}

/**
 * The `seed` and `replay` fields of a failing check's result, its report printed (see
 * {@link reportFailure}): what each check adds to the result it answers when it fails.
 *
 * @example
 * return { ok: false, ...replayReported('checkDunning', 42, { violations, traceHash }), violations, traceHash }
 */
export function replayReported(
  api: string,
  seed: number,
  facts: { readonly violations: readonly Violation[]; readonly traceHash?: string | undefined; readonly scenarioFile?: string },
): { seed: number; replay: ReplayHint } {
  const replay = replayHint(seed, facts.scenarioFile)
  reportFailure({ ok: false, violations: facts.violations, traceHash: facts.traceHash, replay }, api)
  return { seed, replay }
}

/**
 * Prints a failing check's report (see {@link formatFailure}) with `console.error`, which vitest
 * shows beside the test; nothing for a check that passed.
 *
 * @example
 * reportFailure(result, 'checkWebhookReceiver')
 */
export function reportFailure(result: FailedCheck, api: string): void {
  if (!result.ok) console.error(formatFailure(result, api))
}
