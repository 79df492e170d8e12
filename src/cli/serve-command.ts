import { dirname, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { loadScenarioFile } from '../harness/scenario/load-scenario.js'
import { runScenarioOn } from '../harness/scenario/run-scenario.js'
import { createSimulator } from '../simulator/create-simulator.js'
import { HELP } from './help.js'
import { startHttpServer } from './http-server.js'
import { intOption, UsageError } from './usage-error.js'

/**
 * `service-sim serve [--port P] [--seed N] [--scenario file] [--no-limits]`: the simulator on 127.0.0.1 until
 * SIGINT (or SIGTERM), then a clean close and exit code 0.
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
  const server = await startHttpServer(sim, port).catch((error: unknown) => {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'EADDRINUSE')
      throw new UsageError(`port ${port} on 127.0.0.1 is already in use; pick another with --port (0 for any)`)
    if (code === 'EACCES') throw new UsageError(`port ${port} needs privileges; pick another with --port`)
    throw error
  })
  const address = server.address()
  const actual = typeof address === 'object' && address ? address.port : port
  process.stdout.write(
    `service-sim serving on http://127.0.0.1:${actual} (seed ${sim.seed})\n  platform ${sim.platform.id}\n  secret key ${sim.platform.secretKey.test}\n  admin API http://127.0.0.1:${actual}/__sim/state\nPress Ctrl-C to stop.\n`,
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
