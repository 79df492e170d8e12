import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, realpathSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/**
 * A source copy of the tree at `rev` (by `git archive`, so no worktree is registered) in the
 * temporary directory, sharing this checkout's node_modules, for a bench that imports the baseline
 * and the current tree side by side in one process. Made once per revision and reused.
 *
 * @example
 * const dir = baselineTree('0a504a2')
 * const base = await import(join(dir, 'src/harness/index.ts'))
 */
export function baselineTree(rev: string, cwd = process.cwd()): string {
  const dir = join(tmpdir(), `service-sim-baseline-${rev}`)
  if (existsSync(join(dir, 'src'))) return dir
  mkdirSync(dir, { recursive: true })
  const archive = spawnSync('git', ['archive', '--format=tar', rev, 'src', 'package.json', 'tsconfig.json'], {
    cwd,
    maxBuffer: 1 << 30,
  })
  if (archive.status !== 0) throw new Error(`git archive ${rev} failed: ${archive.stderr.toString().trim()}`)
  const untar = spawnSync('tar', ['-x', '-C', dir], { input: archive.stdout })
  if (untar.status !== 0) throw new Error(`tar failed: ${untar.stderr.toString().trim()}`)
  // The baseline resolves its packages (fast-check, seedrandom) from this checkout.
  symlinkSync(realpathSync(join(cwd, 'node_modules')), join(dir, 'node_modules'))
  return dir
}
