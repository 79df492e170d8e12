import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'

/** The first ```ts block under "## Quickstart" in the README, exactly as a reader copies it. */
function quickstart(): string {
  const readme = readFileSync(join(import.meta.dirname, '..', 'README.md'), 'utf8')
  const section = readme.slice(readme.indexOf('## Quickstart'))
  const match = /```ts\n([\s\S]*?)```/.exec(section)
  if (!match?.[1]) throw new Error('README has no ```ts block under ## Quickstart')
  return match[1]
}

describe('README quickstart', () => {
  it('runs as written and prints what its comments say', async () => {
    const dir = join(import.meta.dirname, '.generated')
    mkdirSync(dir, { recursive: true })
    const file = join(dir, 'readme-quickstart.ts')
    writeFileSync(file, `// Generated from README.md by test/readme-quickstart.test.ts\n${quickstart()}\nexport {}\n`)
    const logs: unknown[][] = []
    const spy = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void logs.push(args))
    try {
      await import(/* @vite-ignore */ `${file}?run=1`)
    } finally {
      spy.mockRestore()
    }
    expect(logs[0]?.[0]).toBe(401)
    expect(String(logs[1]?.[0])).toMatch(/^[0-9a-f]{64}$/)
  })
})
