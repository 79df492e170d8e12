import { resolve } from 'node:path'
import type { Simulator } from '#simulator/index.js'
import { ADMIN_TOKEN_ENV, SERVE_URL_ENV } from './admin-connection.js'
import { CounterexampleSource } from './counterexample/counterexample-source.js'
import { writeEnvFile } from './env-file.js'
import { type HttpServerOptions, startHttpServer } from './http-server.js'
import { serveBanner } from './serve-banner.js'
import type { ForwardDestination } from './serve-forwarding.js'
import { parseServeOptions, type ServeOptions } from './serve-options.js'
import { buildServedSimulator, type ServedForwarding } from './served-simulator.js'
import { createSessionRecorder, type SessionRecorder } from './session-record.js'
import { stopOnSignal } from './stop-on-signal.js'
import { UsageError } from './usage-error.js'

export { ADMIN_TOKEN_ENV } from './admin-connection.js'
export { clockOption, MAX_SPEED, resolveAdminToken } from './serve-options.js'

/** Starts recording the session served, for `replay --served`. */
function startRecording(o: ServeOptions, file: string, sim: Simulator): SessionRecorder {
  let recorder: SessionRecorder
  try {
    recorder = createSessionRecorder(resolve(file))
  } catch (error) {
    throw new UsageError(`--record: cannot write ${file}: ${(error as Error).message}`)
  }
  recorder.start(sim, o.clock, !o.noLimits, o.forward)
  return recorder
}

/** Listens on loopback, or says why the port cannot be had. */
function listen(
  sim: Simulator,
  o: ServeOptions,
  options: Omit<HttpServerOptions, 'port' | 'adminToken' | 'allowedHosts' | 'clock'>,
) {
  return startHttpServer(sim, {
    port: o.port,
    adminToken: o.token,
    allowedHosts: o.allowedHosts,
    clock: o.clock,
    ...options,
  }).catch((error: unknown) => {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'EADDRINUSE')
      throw new UsageError(`port ${o.port} on 127.0.0.1 is already in use; pick another with --port (0 for any)`)
    if (code === 'EACCES') throw new UsageError(`port ${o.port} needs privileges; pick another with --port`)
    throw error
  })
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
  const o = parseServeOptions(args)
  if (o === undefined) return 0
  const forwarding: ServedForwarding = { forwarded: [] }
  const sim = await buildServedSimulator(o, forwarding, true)
  const recorder = o.record === undefined ? undefined : startRecording(o, o.record, sim)
  const { stateFile } = o
  const server = await listen(sim, o, {
    rebuild: () => buildServedSimulator(o, forwarding, false),
    extras: () => ({ forward: forwarding.forwarded }),
    ...(stateFile === undefined ? {} : { stateFile }),
    ...(recorder === undefined ? {} : { recorder }),
    ...(o.counterexamples === undefined ? {} : { counterexamples: new CounterexampleSource(o.counterexamples) }),
  })
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : o.port
  const banner = serveBanner(o, { sim, port, forwarded: forwarding.forwarded, recordFile: recorder?.file })
  if (o.envFile !== undefined) {
    try {
      writeEnvFile(o.envFile, serveEnv(sim, forwarding.forwarded, { url: `http://127.0.0.1:${port}`, token: o.token }))
    } catch (error) {
      throw new UsageError(`--env-file: cannot write ${o.envFile}: ${(error as Error).message}`)
    }
  }
  process.stdout.write(banner)
  const code = await stopOnSignal(server, { recorder, stateFile })
  process.stdout.write('service-sim stopped\n')
  return code
}

/**
 * What `--env-file` writes: the platform's test keys and the signing secret of the forwarding
 * destination an app verifies with (`--forward-to`'s, else the first made), under the names the
 * provider's sample apps read; and serve's address and admin token (`none` when off), which
 * `service-sim trigger` reads from the file.
 *
 * @example
 * serveEnv(sim, forwarded, { url: 'http://127.0.0.1:12111', token: 'q3X0...' })
 * // { STRIPE_SECRET_KEY: 'sk_test_...', ..., SERVICE_SIM_URL: 'http://127.0.0.1:12111', SERVICE_SIM_ADMIN_TOKEN: 'q3X0...' }
 */
export function serveEnv(
  sim: Simulator,
  forwarded: readonly ForwardDestination[],
  admin: { readonly url: string; readonly token: string | null },
): Record<string, string> {
  const hook = forwarded.find((f) => f.option === '--forward-to') ?? forwarded[0]
  return {
    STRIPE_SECRET_KEY: sim.platform.secretKey.test,
    STRIPE_PUBLISHABLE_KEY: sim.platform.publishableKey.test,
    ...(hook === undefined ? {} : { STRIPE_WEBHOOK_SECRET: hook.signing_secret }),
    [SERVE_URL_ENV]: admin.url,
    [ADMIN_TOKEN_ENV]: admin.token ?? 'none',
  }
}
