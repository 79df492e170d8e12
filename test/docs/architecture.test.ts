import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { requestPipeline } from '../../src/http/pipeline/pipeline.js'

/**
 * `docs/architecture.md` is where a maintainer starts: every folder, file and step it names must
 * exist, and every concept folder and pipeline step that exists must be named in it.
 */
const root = join(import.meta.dirname, '..', '..')
const doc = readFileSync(join(root, 'docs', 'architecture.md'), 'utf8')
const named = [...doc.matchAll(/`((?:src|docs|test|scripts)\/[^`*<>\s]*)`/g)].map((m) => m[1] as string)
const conceptFolders = readdirSync(join(root, 'src', 'domain'), { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name)

describe('the architecture guide', () => {
  it('names only folders and files that exist', () => {
    expect(named.length).toBeGreaterThan(30)
    expect(named.filter((path) => !existsSync(join(root, path)))).toEqual([])
  })

  it('names every concept folder of the domain, and each says what it owns in a README', () => {
    expect(conceptFolders.length).toBeGreaterThan(10)
    expect(conceptFolders.filter((c) => !named.includes(`src/domain/${c}/`))).toEqual([])
    expect(conceptFolders.filter((c) => !existsSync(join(root, 'src', 'domain', c, 'README.md')))).toEqual([])
  })

  it('names every step of the request pipeline with its file', () => {
    const steps = requestPipeline.map((step) => step.name)
    expect(steps.length).toBeGreaterThan(5)
    expect(steps.filter((s) => !doc.includes(`\`${s}\``))).toEqual([])
    for (const s of steps) {
      const file = `src/http/pipeline/${s.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}.ts`
      expect(named, `${s} is in ${file}`).toContain(file)
    }
  })
})
