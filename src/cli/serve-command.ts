import { dirname, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { versionProblem } from '#catalogue/versions.js'
import { loadScenarioFile } from '#harness/scenario/load-scenario.js'
import { runScenarioOn } from '#harness/scenario/run-scenario.js'
import { callerNow } from '#kernel/wall-clock.js'
import { createSimulator, type Simulator } from '#simulator/create-simulator.js'
import { writeEnvFile } from './env-file.js'
import { loadFixtureFile } from './fixture-file.js'
import { HELP } from './help.js'
import { startHttpServer } from './http-server.js'
import { type ForwardDestination, forwardOptions, setUpForwarding } from './serve-forwarding.js'
import { adminTokenProblem, allowedHostSet, generateAdminToken } from './serve-guard.js'
import { createSessionRecorder, type SessionRecorder } from './session-record.js'
import { backupPath, readStateFile } from './state-file.js'
import { headerPrefixOption, intOption, UsageError } from './usage-error.js'
import type { ServeClock } from './wall-driver.js'

/** The environment variable that gives the admin token when `--admin-token` does not. */
export const ADMIN_TOKEN_ENV = 'SERVICE_SIM_ADMIN_TOKEN'

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
): { token: string | null; source: 'generated' | '--admin-token' | typeof ADMIN_TOKEN_ENV } {
  const fromEnv = env[ADMIN_TOKEN_ENV]
  let given: string | undefined
  let source: 'generated' | '--admin-token' | typeof ADMIN_TOKEN_ENV = 'generated'
  if (option !== undefined) [given, source] = [option, '--admin-token']
  else if (fromEnv !== undefined && fromEnv !== '') [given, source] = [fromEnv, ADMIN_TOKEN_ENV]
  if (given === undefined) return { token: generateAdminToken(), source }
  if (given === 'none') return { token: null, source }
  const problem = adminTokenProblem(given)
  if (problem !== undefined) throw new UsageError(`${source}: ${problem}`)
  return { token: given, source }
}

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

/**
 * `service-sim serve [--port P] [--seed N] [--scenario file] [--no-limits] [--admin-token T|none]
 * [--allowed-host H]...`: the simulator on 127.0.0.1 until SIGINT (or SIGTERM), then a clean close
 * and exit code 0.
 *
 * @example
 * await serveCommand(['--port', '0', '--seed', '42'])
 */
export async function serveCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      port: { type: 'string' },
      seed: { type: 'string' },
      scenario: { type: 'string' },
      'no-limits': { type: 'boolean' },
      'admin-token': { type: 'string' },
      'allowed-host': { type: 'string', multiple: true },
      'header-prefix': { type: 'string' },
      'api-version': { type: 'string' },
      clock: { type: 'string' },
      speed: { type: 'string' },
      'forward-to': { type: 'string' },
      events: { type: 'string' },
      'forward-thin-to': { type: 'string' },
      'thin-events': { type: 'string' },
      'forward-connect-to': { type: 'string' },
      'env-file': { type: 'string' },
      fixtures: { type: 'string', multiple: true },
      state: { type: 'string' },
      record: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  })
  if (values.help) {
    process.stdout.write(HELP.serve ?? '')
    return 0
  }
  if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'`)
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
  const saved = read?.snapshot
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
  // With a wall clock virtual time starts now, so signatures pass a real app's tolerance check.
  const start = () => (clock.mode === 'wall' ? { start: callerNow() } : {})
  const fixtureFiles = (values.fixtures ?? []).map((f) => {
    if (f === '') throw new UsageError('--fixtures: expected a file path')
    return resolve(f)
  })
  let forwarded: ForwardDestination[] = []
  const build = async (announce: boolean): Promise<Simulator> => {
    let built: Simulator
    if (announce && saved !== undefined && stateFile !== undefined) {
      // The saved run goes on: its options, ids and virtual time (a wall clock follows real time from there).
      try {
        built = createSimulator({ from: saved })
      } catch (error) {
        throw new UsageError(`--state: ${stateFile}: ${(error as Error).message}`)
      }
      if (read?.fellBack === true)
        process.stdout.write(`${stateFile} is missing or unreadable: loading the save before it, ${backupPath(stateFile)}\n`)
      process.stdout.write(
        `state loaded from ${stateFile} (virtual time ${new Date(built.clock.now).toISOString()}; seed, limits and header prefix are the saved run's)\n`,
      )
    } else if (values.scenario !== undefined) {
      const loaded = loadScenarioFile(values.scenario)
      const scenario = {
        ...loaded,
        ...(headerPrefix === undefined ? {} : { header_prefix: headerPrefix }),
        ...(clock.mode === 'wall' && loaded.start === undefined ? { start: new Date(callerNow()).toISOString() } : {}),
      }
      const run = await runScenarioOn(scenario, {
        ...(seed === undefined ? {} : { seed }),
        baseDir: dirname(resolve(values.scenario)),
      })
      built = run.sim
      if (announce)
        process.stdout.write(
          `scenario ${scenario.name}: ${run.result.steps.length} steps run, ${run.result.ok ? 'expectations hold' : 'some expectations violated'}\n`,
        )
    } else {
      // A server runs for as long as someone uses it: keep the last 100,000 trace entries in memory
      // (the hash still covers every one).
      built = createSimulator({
        seed: seed ?? 0,
        traceLimit: 100_000,
        ...start(),
        ...(headerPrefix === undefined ? {} : { headerPrefix }),
        ...(values['no-limits'] ? { limits: false as const } : {}),
        ...(apiVersion === undefined ? {} : { apiVersion }),
      })
    }
    forwarded = forward === undefined ? [] : setUpForwarding(built, forward)
    // After forwarding, so the fixtures' events reach the app as the provider's CLI would send them.
    // A loaded state already holds what its run's fixtures made: running them again would duplicate it.
    const fromState = announce && saved !== undefined
    if (fromState && fixtureFiles.length > 0) process.stdout.write('fixtures not run: the state loaded already holds them\n')
    for (const file of fromState ? [] : fixtureFiles) {
      const count = await loadFixtureFile(built, file)
      if (announce) process.stdout.write(`fixtures ${file}: ${count} requests run\n`)
    }
    return built
  }
  const sim = await build(true)
  let recorder: SessionRecorder | undefined
  if (values.record !== undefined) {
    try {
      recorder = createSessionRecorder(resolve(values.record))
    } catch (error) {
      throw new UsageError(`--record: cannot write ${values.record}: ${(error as Error).message}`)
    }
    recorder.start(sim, clock, values['no-limits'] !== true, forward)
  }
  const server = await startHttpServer(sim, {
    port,
    adminToken: token,
    allowedHosts,
    clock,
    rebuild: () => build(false),
    extras: () => ({ forward: forwarded }),
    ...(stateFile === undefined ? {} : { stateFile }),
    ...(recorder === undefined ? {} : { recorder }),
  }).catch((error: unknown) => {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'EADDRINUSE')
      throw new UsageError(`port ${port} on 127.0.0.1 is already in use; pick another with --port (0 for any)`)
    if (code === 'EACCES') throw new UsageError(`port ${port} needs privileges; pick another with --port`)
    throw error
  })
  const address = server.address()
  const actual = typeof address === 'object' && address ? address.port : port
  // A token the user chose is not echoed into logs; a generated one has to be, or nobody knows it.
  const tokenLine =
    token === null
      ? `  admin token none (${source}): any local process can use the admin API`
      : source === 'generated'
        ? `  admin token ${token} (send 'Authorization: Bearer <token>'; fix one with --admin-token or ${ADMIN_TOKEN_ENV})`
        : `  admin token from ${source} (send 'Authorization: Bearer <token>')`
  const clockLine =
    clock.mode === 'wall'
      ? `  clock wall${clock.speed === 1 ? '' : ` x${clock.speed}`}: virtual time ${new Date(sim.clock.now).toISOString()} follows real time; work falls due by itself`
      : `  clock manual: virtual time ${new Date(sim.clock.now).toISOString()} moves only through POST /__sim/clock/advance`
  const forwardLines = forwarded.map(
    (f) =>
      `  forwarding ${f.event_payload} events (${f.enabled_events.join(', ')}) from ${f.events_from.join(', ')} to ${f.url} (${f.option}): destination ${f.destination}\n  webhook signing secret ${f.signing_secret}\n`,
  )
  if (envFile !== undefined) {
    try {
      writeEnvFile(envFile, serveEnv(sim, forwarded))
    } catch (error) {
      throw new UsageError(`--env-file: cannot write ${envFile}: ${(error as Error).message}`)
    }
  }
  process.stdout.write(
    `service-sim serving on http://127.0.0.1:${actual} (seed ${sim.seed}, header prefix ${sim.service.kernel.prefix})\n  platform ${sim.platform.id}\n  secret key ${sim.platform.secretKey.test}\n  publishable key ${sim.platform.publishableKey.test}\n  admin API http://127.0.0.1:${actual}/__sim/state\n${tokenLine}\n${clockLine}\n${forwardLines.join('')}${envFile === undefined ? '' : `  keys and signing secret written to ${envFile}\n`}${recorder === undefined ? '' : `  recording the session to ${recorder.file}\n`}  hosts ${[...allowedHostSet(allowedHosts)].join(', ')} (any port)\nPress Ctrl-C to stop.\n`,
  )
  let code = 0
  await new Promise<void>((stop) => {
    const onSignal = () => {
      process.off('SIGINT', onSignal)
      process.off('SIGTERM', onSignal)
      const close = () => {
        server.close(() => stop())
        // Keep-alive sockets would hold close() open.
        ;(server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.()
      }
      if (recorder !== undefined) {
        const r = recorder
        // Due work up to now runs first, so the end line's time and trace hash are those of a run at rest.
        return void server.host
          .advance(0)
          .then(
            () => {
              r.end(server.host.sim)
              process.stdout.write(`session recorded in ${r.file} (replay: service-sim replay --served ${r.file})\n`)
            },
            (error: unknown) => {
              code = 1
              process.stderr.write(`service-sim: session record not finished: ${(error as Error).message}\n`)
            },
          )
          .finally(close)
      }
      if (stateFile === undefined) return close()
      // `--state`: the simulator served now (after any reset) is saved, atomically, before closing.
      server.host
        .snapshot()
        .then(
          () => process.stdout.write(`state saved to ${stateFile}\n`),
          (error: unknown) => {
            code = 1
            process.stderr.write(`service-sim: state not saved to ${stateFile}: ${(error as Error).message}\n`)
          },
        )
        .finally(close)
    }
    process.on('SIGINT', onSignal)
    process.on('SIGTERM', onSignal)
  })
  process.stdout.write('service-sim stopped\n')
  return code
}

/**
 * What `--env-file` writes: the platform's test keys and the signing secret of the forwarding
 * destination an app verifies with (`--forward-to`'s, else the first made), under the names the
 * provider's sample apps read.
 *
 * @example
 * serveEnv(sim, forwarded) // { STRIPE_SECRET_KEY: 'sk_test_...', STRIPE_PUBLISHABLE_KEY: 'pk_test_...', STRIPE_WEBHOOK_SECRET: 'whsec_...' }
 */
export function serveEnv(sim: Simulator, forwarded: readonly ForwardDestination[]): Record<string, string> {
  const hook = forwarded.find((f) => f.option === '--forward-to') ?? forwarded[0]
  return {
    STRIPE_SECRET_KEY: sim.platform.secretKey.test,
    STRIPE_PUBLISHABLE_KEY: sim.platform.publishableKey.test,
    ...(hook === undefined ? {} : { STRIPE_WEBHOOK_SECRET: hook.signing_secret }),
  }
}
