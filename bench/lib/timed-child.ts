import { spawn, spawnSync } from 'node:child_process'

/**
 * One fresh node process running `args` from `cwd`: wall ms from spawn to exit, its own CPU ms (on
 * fd 3, written by the preloaded `bench/lib/cold-start-cpu.mjs`) and its stdout, for the check that
 * it did its work. A non-zero exit rejects with its stderr.
 *
 * @example
 * const { ms, cpu, out } = await runTimed(ROOT, ['dist/cli/main.js', '--help'])
 */
export function runTimed(cwd: string, args: readonly string[]): Promise<{ ms: number; cpu: number; out: string }> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint()
    const child = spawn(process.execPath, ['--import', './bench/lib/cold-start-cpu.mjs', ...args], {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
    })
    let out = ''
    let err = ''
    let cpu = ''
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString()
    })
    child.stderr?.on('data', (d: Buffer) => {
      err += d.toString()
    })
    child.stdio[3]?.on('data', (d: Buffer) => {
      cpu += d.toString()
    })
    child.on('error', reject)
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6
      if (code !== 0) reject(new Error(`node ${args.join(' ')} exited ${code}: ${err.trim()}`))
      else resolve({ ms, cpu: Number(cpu), out })
    })
  })
}

/**
 * The median of a sample (the mean of the middle two for an even count).
 *
 * @example
 * median([3, 1, 2]) // 2
 */
export function median(xs: readonly number[]): number {
  const sorted = [...xs].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2
}

/**
 * Builds dist/ first, so a bench of the built package never measures a stale one.
 *
 * @example
 * buildDist(ROOT)
 */
export function buildDist(cwd: string): void {
  const build = spawnSync('npm', ['run', 'build', '--silent'], { cwd, stdio: 'inherit', shell: process.platform === 'win32' })
  if (build.status !== 0) throw new Error(`npm run build failed (${build.status}): the bench measures the built dist/`)
}
