import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { MACHINE_PATH, machinePathLines } from './machine-paths.js'

const repo = join(import.meta.dirname, '..', '..')

describe('the files the package ships', () => {
  const listed = JSON.parse(
    execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: repo,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }),
  ) as { files: { path: string }[] }[]
  const files = listed[0]!.files.map((f) => f.path)

  it('ship the user guides, the runnable examples, the service contract and the licence', () => {
    expect(files).toEqual(
      expect.arrayContaining([
        'LICENSE',
        'README.md',
        'docs/service.md',
        'docs/getting-started.md',
        'docs/faults-and-properties.md',
        'docs/cli.md',
        'examples/webhook-handler/webhook-handler.ts',
        'examples/usage-reporter/usage-reporter.test.ts',
        'scenarios/usage-to-invoice.yaml',
      ]),
    )
    expect(files.filter((f) => f.startsWith('src/') || f.startsWith('test/') || /decisions-pending/.test(f))).toEqual([])
  })

  it('name no path of a build machine (home folders, work trees, an outside spec)', () => {
    expect(machinePathLines(repo, files)).toEqual([])
  })

  it('catch such a path when one is written', () => {
    expect(MACHINE_PATH.test('see /home/ada/spec.md')).toBe(true)
    expect(MACHINE_PATH.test('the contract in shared/spec/service-api.md')).toBe(true)
    expect(MACHINE_PATH.test('see docs/service.md')).toBe(false)
  })
})
