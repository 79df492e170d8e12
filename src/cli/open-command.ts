import { existsSync, statSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { loadClientModule } from '#harness/scenario/run-scenario.js'
import { parseCommandArgs } from './command-flags.js'
import { CounterexampleSource } from './counterexample/counterexample-source.js'
import { startOpenServer } from './counterexample/open-server.js'
import { HELP } from './help.js'
import { resolveAdminToken } from './serve-options.js'
import { intOption, UsageError } from './usage-error.js'

/** The link printed at start: with a generated token it carries it (opening it sets the page's cookie). */
function link(port: number, token: string | null, generated: boolean): string {
  const page = `http://127.0.0.1:${port}/__dashboard`
  if (token === null) return page
  return generated ? `${page}?token=${token}` : `${page}?token=<admin token>`
}

/** `--client`: the user's subject module, as replay takes it. */
async function clientOption(path: string | undefined): Promise<unknown> {
  if (path === undefined) return undefined
  try {
    return await loadClientModule(path, process.cwd())
  } catch (error) {
    throw new UsageError(
      `--client ${path}: cannot load it: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
    )
  }
}

/**
 * Replays the newest counterexample before serving, so the page opens at once and a file that
 * cannot be replayed (a subject module it cannot find) is refused here, where the fix is typed. In
 * a directory, one such file does not keep the others from being opened: it is only reported.
 */
async function warmUp(path: string, counterexamples: CounterexampleSource): Promise<void> {
  const newest = counterexamples.files()[0]
  if (newest === undefined) throw new UsageError(`${path}: no counterexample files (.json, .yaml) in it`)
  try {
    await counterexamples.walk(newest.name)
  } catch (error) {
    const message = error instanceof UsageError ? error.message : `${newest.name}: cannot replay it: ${(error as Error).message}`
    if (statSync(path).isFile()) throw new UsageError(message)
    process.stderr.write(`service-sim: ${message}\n`)
  }
}

/**
 * `service-sim open <file|dir> [--port N] [--admin-token T] [--allowed-host H] [--client module]`:
 * serves the dashboard's step-through of a counterexample file (or of every one in a directory,
 * the newest first) until Ctrl-C. Each file is replayed from its program and seed when opened.
 *
 * @example
 * const code = await openCommand(['.service-sim/counterexamples'])
 */
export async function openCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs('open', args)
  if (values.help) {
    process.stdout.write(HELP.open ?? '')
    return 0
  }
  if (positionals.length !== 1)
    throw new UsageError(
      `expected one counterexample file or directory, got ${positionals.length === 0 ? 'none' : positionals.join(' ')}`,
    )
  const path = positionals[0] as string
  if (!existsSync(path)) throw new UsageError(`${path}: no such file or directory`)
  const { token, source } = resolveAdminToken(values['admin-token'], process.env)
  const counterexamples = new CounterexampleSource(path, await clientOption(values.client))
  await warmUp(path, counterexamples)
  const port0 = intOption('--port', values.port) ?? 0
  const server = await startOpenServer(counterexamples, {
    port: port0,
    token,
    ...(values['allowed-host'] === undefined ? {} : { allowedHosts: values['allowed-host'] }),
  }).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE')
      throw new UsageError(`port ${port0} on 127.0.0.1 is already in use; pick another with --port (0 for any)`)
    throw error
  })
  const port = (server.address() as AddressInfo).port
  process.stdout.write(
    `service-sim: stepping through ${counterexamples.path}\n  dashboard ${link(port, token, source === 'generated')}\nPress Ctrl-C to stop.\n`,
  )
  await new Promise<void>((stopped) => {
    const stop = () => {
      process.off('SIGINT', stop)
      process.off('SIGTERM', stop)
      server.close(() => stopped())
      server.closeAllConnections()
    }
    process.once('SIGINT', stop)
    process.once('SIGTERM', stop)
  })
  return 0
}
