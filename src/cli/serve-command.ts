import { dirname, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { loadScenarioFile } from '../harness/scenario/load-scenario.js'
import { runScenarioOn } from '../harness/scenario/run-scenario.js'
import { createSimulator } from '../simulator/create-simulator.js'
import { HELP } from './help.js'
import { startHttpServer } from './http-server.js'
import { adminTokenProblem, allowedHostSet, generateAdminToken } from './serve-guard.js'
import { intOption, UsageError } from './usage-error.js'

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
      help: { type: 'boolean', short: 'h' },
    },
  })
  if (values.help) {
    process.stdout.write(HELP.serve ?? '')
    return 0
  }
  if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'`)
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
  let sim: ReturnType<typeof createSimulator>
  if (values.scenario !== undefined) {
    const scenario = loadScenarioFile(values.scenario)
    const run = await runScenarioOn(scenario, {
      ...(seed === undefined ? {} : { seed }),
      baseDir: dirname(resolve(values.scenario)),
    })
    sim = run.sim
    process.stdout.write(
      `scenario ${scenario.name}: ${run.result.steps.length} steps run, ${run.result.ok ? 'expectations hold' : 'some expectations violated'}\n`,
    )
  } else {
    // A server runs for as long as someone uses it: keep the last 100,000 trace entries in memory
    // (the hash still covers every one).
    sim = createSimulator({ seed: seed ?? 0, traceLimit: 100_000, ...(values['no-limits'] ? { limits: false as const } : {}) })
  }
  const server = await startHttpServer(sim, { port, adminToken: token, allowedHosts }).catch((error: unknown) => {
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
  process.stdout.write(
    `service-sim serving on http://127.0.0.1:${actual} (seed ${sim.seed})\n  platform ${sim.platform.id}\n  secret key ${sim.platform.secretKey.test}\n  admin API http://127.0.0.1:${actual}/__sim/state\n${tokenLine}\n  hosts ${[...allowedHostSet(allowedHosts)].join(', ')} (any port)\nPress Ctrl-C to stop.\n`,
  )
  await new Promise<void>((stop) => {
    const onSignal = () => {
      process.off('SIGINT', onSignal)
      process.off('SIGTERM', onSignal)
      server.close(() => stop())
      // Keep-alive sockets would hold close() open; the simulator has nothing to flush.
      ;(server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.()
    }
    process.on('SIGINT', onSignal)
    process.on('SIGTERM', onSignal)
  })
  process.stdout.write('service-sim stopped\n')
  return 0
}
