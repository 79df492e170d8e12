import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { buildObject } from '../../src/domain/engine/build-object.js'
import { catalogueView } from '../../src/domain/engine/catalogue.js'
import { fieldsOf } from '../../src/domain/engine/catalogue-view.js'
import { declarations } from '../../src/domain/resource-declarations.js'

/**
 * Declarations stay small and spell a field only where it has a real default: the catalogue
 * spells every field once, and the engine builds `null`, `0`, `false`, `[]`, the first enum value
 * without being told.
 */
const DOMAIN = join(import.meta.dirname, '..', '..', 'src', 'domain')
/** Every resource declaration file: each concept folder names them `<resource>-resource.ts`. */
const declarationFiles = (readdirSync(DOMAIN, { recursive: true }) as string[])
  .filter((name) => name.endsWith('-resource.ts'))
  .map((name) => readFileSync(join(DOMAIN, name), 'utf8'))
const files = Object.fromEntries(declarations.map((d) => [d.object, fileOf(d.object)]))

/** The text of the declaration file that declares an object type. */
function fileOf(object: string): string {
  const file = declarationFiles.find((text) => text.includes(`object: '${object}'`))
  if (file === undefined) throw new Error(`no file declares ${object}`)
  return file
}

/** Values the engine builds by itself for a field that is nullable, boolean, numeric or a list. */
const EMPTY = new Set(['null', 'false', '0', '""', '[]', '{}'])

describe('resource declarations', () => {
  it('are at most 40 lines when plain (no behaviours)', () => {
    const lengths = declarations.map((d) => ({
      object: d.object,
      lines: (files[d.object] ?? '').trimEnd().split('\n').length,
      plain: d.behaviours === undefined,
    }))
    console.log(
      `declarations: longest plain ${Math.max(...lengths.filter((l) => l.plain).map((l) => l.lines))} lines, longest ${Math.max(...lengths.map((l) => l.lines))} lines`,
    )
    expect(lengths.filter((l) => l.plain && l.lines > 40)).toEqual([])
  })

  it('spell a field only where its default differs from what the engine builds from the catalogue', () => {
    const redundant: string[] = []
    for (const d of declarations) {
      if (d.defaults === undefined) continue
      const ctx = { id: `${d.idPrefix}_ABCDEFGHIJKLMNOP`, created: 1_700_000_000, livemode: false }
      const built = buildObject(catalogueView, d.type, { ...ctx, object: d.object, url: `/v1/x/${ctx.id}` })
      const fields = fieldsOf(catalogueView, d.type)
      const scope = { account: 'acct_1', mode: 'test' as const }
      const defaults = d.defaults({ ...ctx, scope, params: {} })
      // Defaults computed from params (`type: params.recurring ? 'recurring' : 'one_time'`) are behaviour.
      const anyParams = new Proxy({}, { get: () => 1, has: () => true })
      const withParams = d.defaults({ ...ctx, scope, params: anyParams })
      for (const [name, value] of Object.entries(defaults)) {
        if (fields[name] === undefined || fields[name].optional === true) continue
        if (JSON.stringify(withParams[name]) !== JSON.stringify(value)) continue
        // An enum value the provider documents stays spelled even where it is the first member.
        if (!EMPTY.has(JSON.stringify(value))) continue
        if (JSON.stringify(built[name]) === JSON.stringify(value)) redundant.push(`${d.object}.${name}=${JSON.stringify(value)}`)
      }
    }
    expect(redundant).toEqual([])
  })
})
