import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { versionProblem } from '#catalogue/index.js'
import type { Snapshot } from '#simulator/index.js'
import { ADMIN_TOKEN_ENV } from './admin-connection.js'
import { parseCommandArgs } from './command-flags.js'
import { HELP } from './help.js'
import { type ForwardSpec, forwardOptions } from './serve-forwarding.js'
import { adminTokenProblem, allowedHostSet, generateAdminToken } from './serve-guard.js'
import { readStateFile } from './state-file.js'
import { headerPrefixOption, intOption, UsageError } from './usage-error.js'
import type { ServeClock } from './wall-driver.js'

export { ADMIN_TOKEN_ENV } from './admin-connection.js'

/** Where a `serve` run's admin token came from, for the start banner. */
export type AdminTokenSource = 'generated' | '--admin-token' | typeof ADMIN_TOKEN_ENV

/**
 * The admin token of a `serve` run: `--admin-token`, else `SERVICE_SIM_ADMIN_TOKEN`, else a fresh
 * random one; `none` (either way) turns the token off. `source` says where it came from, for the
 * start banner.
 *
 * @example
 * resolveAdminToken(undefined, {}) // { token: 'q3X0...', source: 'generated' }
 * resolveAdminToken('none', {}) // { token: null, source: '--admin-token' }
 */
export function resolveAdminToken(
  option: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
): { token: string | null; source: AdminTokenSource } {
  const fromEnv = env[ADMIN_TOKEN_ENV]
  let given: string | undefined
  let source: AdminTokenSource = 'generated'
  if (option !== undefined) [given, source] = [option, '--admin-token']
  else if (fromEnv !== undefined && fromEnv !== '') [given, source] = [fromEnv, ADMIN_TOKEN_ENV]
  if (given === undefined) return { token: generateAdminToken(), source }
  if (given === 'none') return { token: null, source }
  const problem = adminTokenProblem(given)
  if (problem !== undefined) throw new UsageError(`${source}: ${problem}`)
  return { token: given, source }
}

/**
 * The header prefix `serve` speaks when `--header-prefix` does not say (nor a scenario, nor a
 * saved run): the official clients' own, so a client of any language works as started, its
 * webhooks' signatures included.
 */
export const SERVE_HEADER_PREFIX = 'Stripe'

/** Largest `--speed`: a million virtual milliseconds per real one (11.6 days a second). */
export const MAX_SPEED = 1_000_000

/**
 * Parses `--clock` and `--speed`: `wall` (default) follows real time `speed` times faster,
 * `manual` moves only through the admin API (and takes no `--speed`).
 *
 * @example
 * clockOption(undefined, '60') // { mode: 'wall', speed: 60 }
 */
export function clockOption(mode: string | undefined, speed: string | undefined): ServeClock {
  if (mode !== undefined && mode !== 'wall' && mode !== 'manual')
    throw new UsageError(`--clock: expected 'wall' or 'manual', got '${mode}'`)
  if (mode === 'manual') {
    if (speed !== undefined) throw new UsageError('--speed needs --clock wall (a manual clock moves only through the admin API)')
    return { mode: 'manual' }
  }
  if (speed === undefined) return { mode: 'wall', speed: 1 }
  const value = /^\d+(\.\d+)?$/.test(speed) ? Number(speed) : Number.NaN
  if (!(value > 0 && value <= MAX_SPEED))
    throw new UsageError(`--speed: expected a number greater than 0 and at most ${MAX_SPEED}, got '${speed}'`)
  return { mode: 'wall', speed: value }
}

/** A `serve` run's settings, checked: what the command builds, serves and prints from. */
export interface ServeOptions {
  readonly port: number
  readonly seed: number | undefined
  readonly scenario: string | undefined
  readonly noLimits: boolean
  readonly token: string | null
  readonly tokenSource: AdminTokenSource
  readonly allowedHosts: string[]
  readonly headerPrefix: string | undefined
  readonly apiVersion: string | undefined
  readonly clock: ServeClock
  readonly forward: ForwardSpec | undefined
  readonly envFile: string | undefined
  readonly stateFile: string | undefined
  /** The saved run `--state` goes on from, when its file (or the save before it) was read. */
  readonly saved: Snapshot | undefined
  /** The state file was missing or unreadable and the save before it was read instead. */
  readonly fellBack: boolean
  readonly record: string | undefined
  readonly fixtureFiles: string[]
  /** `--counterexamples`: the directory (or file) of counterexamples the dashboard steps through. */
  readonly counterexamples: string | undefined
}

type ServeValues = ReturnType<typeof parseCommandArgs<'serve'>>['values']

/** `--record` replays from a fresh simulator: nothing may start it from elsewhere. */
function checkRecord(values: ServeValues, stateFile: string | undefined): void {
  if (values.record === '') throw new UsageError('--record: expected a file path')
  // A record replays from a fresh simulator built from its first line: a scenario's or a state
  // file's starting state is not in it.
  if (values.record !== undefined && (values.scenario !== undefined || stateFile !== undefined))
    throw new UsageError('--record cannot be combined with --scenario or --state (a record replays from a fresh simulator)')
  // The fixtures' requests are not served ones, so a record would not hold them either.
  if (values.record !== undefined && (values.fixtures ?? []).length > 0)
    throw new UsageError(
      '--record cannot be combined with --fixtures (a record replays from a fresh simulator); load them with POST /__sim/fixtures after start, or as requests',
    )
}

/** Checks the options, in the order their refusals are reported, into the settings of the run. */
function checkServeValues(values: ServeValues): ServeOptions {
  const apiVersion = values['api-version']
  const versionRefusal = apiVersion === undefined ? undefined : versionProblem(apiVersion)
  if (versionRefusal !== undefined) throw new UsageError(`--api-version: ${versionRefusal}`)
  const port = intOption('--port', values.port) ?? 12111
  if (port > 65535) throw new UsageError(`--port: expected 0..65535, got ${port}`)
  const seed = intOption('--seed', values.seed)
  if (values['no-limits'] && values.scenario !== undefined) throw new UsageError('--no-limits cannot be combined with --scenario')
  const allowedHosts = values['allowed-host'] ?? []
  try {
    allowedHostSet(allowedHosts)
  } catch (error) {
    throw new UsageError(`--allowed-host: ${(error as Error).message}`)
  }
  const { token, source } = resolveAdminToken(values['admin-token'], process.env)
  const headerPrefix = headerPrefixOption(values['header-prefix'])
  const clock = clockOption(values.clock, values.speed)
  const forward = forwardOptions(values)
  if (values['env-file'] === '') throw new UsageError('--env-file: expected a file path')
  const envFile = values['env-file'] === undefined ? undefined : resolve(values['env-file'])
  const stateFile = values.state === undefined ? undefined : resolve(values.state)
  if (values.state === '') throw new UsageError('--state: expected a file path')
  const read = stateFile === undefined ? undefined : readStateFile(stateFile)
  checkRecord(values, stateFile)
  const fixtureFiles = (values.fixtures ?? []).map((f) => {
    if (f === '') throw new UsageError('--fixtures: expected a file path')
    return resolve(f)
  })
  const counterexamples = values.counterexamples === undefined ? undefined : resolve(values.counterexamples)
  if (counterexamples !== undefined && !existsSync(counterexamples))
    throw new UsageError(`--counterexamples: ${values.counterexamples}: no such directory`)
  return {
    counterexamples,
    ...{ port, seed, scenario: values.scenario, noLimits: values['no-limits'] === true, token, tokenSource: source },
    ...{ allowedHosts, headerPrefix, apiVersion, clock, forward, envFile, stateFile },
    ...{ saved: read?.snapshot, fellBack: read?.fellBack === true, record: values.record, fixtureFiles },
  }
}

/**
 * Parses and checks `serve`'s arguments; `undefined` when `--help` was asked (and printed).
 *
 * @example
 * parseServeOptions(['--port', '0', '--clock', 'manual']) // { port: 0, clock: { mode: 'manual' }, ... }
 */
export function parseServeOptions(args: string[]): ServeOptions | undefined {
  const { values, positionals } = parseCommandArgs('serve', args)
  if (values.help) {
    process.stdout.write(HELP.serve ?? '')
    return undefined
  }
  if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'`)
  return checkServeValues(values)
}
