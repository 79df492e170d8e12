import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'

const repo = join(import.meta.dirname, '..', '..')
const workflow = parse(readFileSync(join(import.meta.dirname, 'fuzz.yml'), 'utf8'))

/** The `service-sim ...` commands of the workflow, with the matrix variable filled in. */
function cliCommands(): string[][] {
  const steps = Object.values(workflow.jobs as Record<string, { steps: { run?: string }[] }>).flatMap((j) => j.steps)
  return steps
    .map((s) => s.run)
    .filter((run): run is string => run?.startsWith('npx service-sim') === true)
    .map((run) =>
      run
        .replace(/\$\{\{ matrix.shard \}\}/g, '1')
        .split(/\s+/)
        .slice(2),
    )
}

describe('the CI fuzz job example', () => {
  it('is a workflow with a sharded fuzz job and a merge job', () => {
    expect(workflow.jobs.fuzz.strategy.matrix.shard).toEqual([1, 2, 3, 4])
    expect(workflow.jobs.merge.needs).toBe('fuzz')
    expect(cliCommands().map((c) => c[0])).toEqual(['fuzz', 'merge'])
  })

  it('names a scenario that exists, and its fuzz command runs with the CLI as written (fewer seeds)', () => {
    const fuzz = cliCommands()[0]!
    const scenario = fuzz[fuzz.indexOf('--scenario') + 1]!
    expect(existsSync(join(repo, scenario))).toBe(true)
    const out = mkdtempSync(join(tmpdir(), 'fuzz-example-'))
    try {
      const args = fuzz.map((a, i) => (fuzz[i - 1] === '--runs' ? '3' : fuzz[i - 1] === '--workers' ? '1' : a))
      const stdout = execFileSync(
        process.execPath,
        [join(repo, 'bin', 'service-sim.js'), ...args, '--report', join(out, 'reports'), '--failures', join(out, 'failures')],
        { cwd: repo, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
      )
      expect(stdout.length).toBeGreaterThan(0)
    } finally {
      rmSync(out, { recursive: true, force: true })
    }
  }, 60_000)
})
