import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { BIN, ROOT } from '../cli/run-cli.js'

/** Debian's Chromium, as .ci/run installs it. */
export const CHROMIUM = '/usr/bin/chromium'
/** Debian's Firefox ESR, as .ci/run installs it. */
export const FIREFOX = '/usr/bin/firefox-esr'
/** The flags the browser tests start Chromium with. */
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking']

const SHOTS = join(import.meta.dirname, '..', '..', 'docs', 'dashboard')

/**
 * Where a screenshot for the docs goes: written when missing or when UPDATE_SCREENSHOTS is set
 * (pages show wall times, so each run's pixels differ), otherwise taken and dropped.
 */
export const shot = (name: string): { path?: string } => {
  const path = join(SHOTS, `${name}.png`)
  return existsSync(path) && !process.env.UPDATE_SCREENSHOTS ? {} : { path }
}

/** Starts the real `service-sim open <path>` and resolves with the link it prints (the token in it). */
export function startOpen(path: string): Promise<{ child: ChildProcess; link: string }> {
  const child = spawn(process.execPath, [BIN, 'open', path, '--port', '0'], {
    cwd: ROOT,
    env: { ...process.env, SERVICE_SIM_ADMIN_TOKEN: '' },
  })
  let out = ''
  return new Promise((ready, failed) => {
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString()
      const link = /dashboard (http:\/\/127\.0\.0\.1:\d+\/__dashboard\?token=\S+)/.exec(out)?.[1]
      if (link !== undefined && out.includes('Press Ctrl-C')) ready({ child, link })
    })
    child.stderr.on('data', (d: Buffer) => {
      out += d.toString()
    })
    child.on('exit', () => failed(new Error(out)))
  })
}

/** One accessibility problem axe found: its rule, how bad, and where. */
export interface AxeProblem {
  readonly id: string
  readonly impact: string | null
  readonly help: string
  readonly targets: readonly string[]
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

/**
 * The serious and critical accessibility problems axe-core finds on the page as it is now (WCAG
 * 2.x A and AA rules and axe's best practices). axe is evaluated in the page by the browser's
 * debugging protocol, so the page's Content-Security-Policy stays as it is. `only` names the rules
 * to run (all by default).
 */
export async function axeProblems(page: Page, only?: readonly string[]): Promise<AxeProblem[]> {
  await page.evaluate(axeSource)
  const found = await page.evaluate(async (rules) => {
    const axe = (globalThis as unknown as { axe: { run(context: unknown, options: unknown): Promise<unknown> } }).axe
    const runOnly = rules === undefined ? {} : { runOnly: { type: 'rule', values: rules } }
    return (await axe.run(document, { resultTypes: ['violations'], ...runOnly })) as {
      violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[]
    }
  }, only)
  return found.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) }))
}

/**
 * Writes a small counterexample of the dunning property (a client that sends a notice for every
 * delivery of a failed payment; the redelivered event makes it send a second): what a failing
 * `checkDunning` with `scenarioDir` saves, for the tests that look at pages rather than the property.
 */
export function writeDunningCounterexample(dir: string): string {
  const file = join(dir, 'no-dedup-0.json')
  const scenario = {
    name: 'no-dedup',
    description: "Counterexample found by the dunning property against 'no-dedup'.",
    seed: 0,
    harness: { flow: 'dunning', client: 'no-dedup' },
    workload: [
      { client: { action: 'subscribe', args: { customer: 0, plan: 0, quantity: 1, trialDays: 0 } } },
      { client: { action: 'fail_card', args: { customer: 0 } } },
      { advance: 32 * 86_400_000 },
      { client: { action: 'redeliver', args: { aim: 'invoice.payment_failed' } } },
    ],
    faults: { schedule: [] },
  }
  writeFileSync(file, `${JSON.stringify(scenario, null, 2)}\n`)
  return file
}
