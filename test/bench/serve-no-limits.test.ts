import { spawn, spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
// The CLI from the sources (bin/ prefers a possibly stale dist/).
const CLI = ['--import', 'tsx', 'bench/lib/service-sim-cli.ts']

describe('service-sim serve --no-limits (the HTTP bench relies on it)', () => {
  it('answers a burst beyond the sandbox rate limit without 429 and stops on SIGTERM', async () => {
    const child = spawn(process.execPath, [...CLI, 'serve', '--port', '0', '--seed', '3', '--no-limits'], { cwd: ROOT })
    let out = ''
    const ready = await new Promise<{ port: string; key: string }>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString()
        const port = /127\.0\.0\.1:(\d+)/.exec(out)?.[1]
        const key = /secret key (\S+)/.exec(out)?.[1]
        if (port && key) resolve({ port, key })
      })
      child.on('exit', () => reject(new Error(out)))
    })
    const statuses: number[] = []
    for (let i = 0; i < 60; i++) {
      const res = await fetch(`http://127.0.0.1:${ready.port}/v1/account`, {
        headers: { Authorization: `Bearer ${ready.key}` },
      })
      statuses.push(res.status)
      await res.arrayBuffer()
    }
    expect(new Set(statuses)).toEqual(new Set([200]))
    const code = await new Promise<number | null>((resolve) => {
      child.on('exit', (c) => resolve(c))
      child.kill('SIGTERM')
    })
    expect(code).toBe(0)
  }, 30_000)

  it('refuses --no-limits with --scenario with exit code 2', () => {
    const run = spawnSync(process.execPath, [...CLI, 'serve', '--no-limits', '--scenario', 'scenarios/default.yaml'], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 30_000,
    })
    expect(run.status).toBe(2)
    expect(run.stderr).toContain('--no-limits cannot be combined with --scenario')
  }, 30_000)
})
