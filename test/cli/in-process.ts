import { main } from '../../src/cli/main.js'

/**
 * Runs the CLI's `main(argv)` in this process and captures what it writes: the same code path as
 * the `service-sim` bin without a child process (the bin itself is covered by a few spawn tests).
 */
export async function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = ''
  let stderr = ''
  const out = process.stdout.write
  const err = process.stderr.write
  process.stdout.write = ((chunk: string | Uint8Array) => {
    stdout += String(chunk)
    return true
  }) as typeof process.stdout.write
  process.stderr.write = ((chunk: string | Uint8Array) => {
    stderr += String(chunk)
    return true
  }) as typeof process.stderr.write
  const ci = process.env.CI
  process.env.CI = '1'
  try {
    const code = await main(args)
    return { code, stdout, stderr }
  } finally {
    process.stdout.write = out
    process.stderr.write = err
    if (ci === undefined) delete process.env.CI
    else process.env.CI = ci
  }
}
