import { spawn } from 'node:child_process'
import { BIN, ROOT } from './run-cli.js'

/** A `service-sim serve` child process started by `startServeCli`. */
export interface ServedCli {
  readonly port: number
  /** The platform's test secret key, as printed at start. */
  readonly key: string
  /** Everything printed on stdout so far. */
  out(): string
  err(): string
  /** Sends the signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>
}

/**
 * Starts the real bin (`serve --port 0` plus `args`) and resolves once it prints where it serves.
 *
 * @example
 * const served = await startServeCli(['--admin-token', 'none'])
 * await served.stop() // 0
 */
export async function startServeCli(args: string[], env: Record<string, string> = {}): Promise<ServedCli> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', ...args], { cwd: ROOT, env: { ...process.env, ...env } })
  let out = ''
  let err = ''
  child.stderr.on('data', (d: Buffer) => {
    err += d.toString()
  })
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString()
      const m = /127\.0\.0\.1:(\d+)[\s\S]*Press Ctrl-C/.exec(out)
      if (m) resolve(Number(m[1]))
    })
    child.on('exit', () => reject(new Error(out + err)))
  })
  const key = /secret key (\S+)/.exec(out)?.[1] ?? ''
  const stop = (signal: NodeJS.Signals = 'SIGINT') =>
    new Promise<number | null>((resolve) => {
      child.on('exit', (c) => resolve(c))
      child.kill(signal)
    })
  return { port, key, out: () => out, err: () => err, stop }
}
