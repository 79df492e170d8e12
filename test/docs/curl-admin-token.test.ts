import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { HELP } from '../../src/cli/help.js'

const ROOT = join(import.meta.dirname, '..', '..')

/** Every `curl` command (its continuation lines joined) of a text, with the code block it is in. */
function curls(text: string): { command: string; block: string }[] {
  const blocks = text.split(/^```/m).filter((_, i) => i % 2 === 1)
  const sources = blocks.length > 0 ? blocks : [text]
  return sources.flatMap((block) => {
    const joined = block.replace(/\\\n\s*/g, ' ')
    return joined
      .split('\n')
      .filter((line) => /\bcurl\b/.test(line))
      .map((command) => ({ command, block: joined }))
  })
}

const guides = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
]
const texts = [
  ...guides.map((file) => ({ where: file, text: readFileSync(join(ROOT, file), 'utf8') })),
  ...Object.entries(HELP).map(([topic, text]) => ({ where: `service-sim ${topic} --help`, text })),
]

describe("the docs' curl lines to the admin API carry the admin token", () => {
  it('every curl to /__sim/ sends Authorization: Bearer, unless its block starts serve with --admin-token none', () => {
    const missing = texts.flatMap(({ where, text }) =>
      curls(text)
        .filter(({ command }) => command.includes('/__sim/') && !/Authorization: Bearer|X-Sim-Admin-Token/.test(command))
        .filter(({ block }) => !block.includes('--admin-token none'))
        .map(({ command }) => `${where}: ${command.trim()}`),
    )
    expect(missing).toEqual([])
  })

  it('finds the curl lines it checks', () => {
    expect(texts.flatMap(({ text }) => curls(text)).filter((c) => c.command.includes('/__sim/')).length).toBeGreaterThan(3)
  })
})
