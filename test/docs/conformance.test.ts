import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { conformanceText } from '../../scripts/conformance.js'
import { operations } from '../../src/catalogue/index.js'
import { NOT_SERVED } from '../../src/catalogue/not-served.js'
import { CHANGES } from '../../src/domain/versions/changes/index.js'
import { routes } from '../../src/http/routes/index.js'

const root = join(import.meta.dirname, '..', '..')
const committed = () => readFileSync(join(root, 'docs', 'conformance.md'), 'utf8')

describe('the conformance table (docs/conformance.md)', () => {
  it('is the table generated from the catalogue, the declarations, the version changes and the tests (regenerate with npm run conformance)', () => {
    expect(committed()).toBe(conformanceText(root))
  }, 60_000)

  it('has one row per catalogue operation, each with its verb and path, and every hand-written version change', () => {
    const text = committed()
    for (const op of operations()) expect(text).toContain(`| \`${op.name}\` | \`${op.method} ${op.path}\` |`)
    const rows = text.match(/^\| `[\w.]+` \| `(GET|POST|DELETE) /gm) ?? []
    expect(rows).toHaveLength(operations().length)
    for (const change of CHANGES) expect(text).toContain(`| \`${change.version}\` | ${change.description} |`)
    expect(text).toMatch(new RegExp(`^\\| \\*\\*All\\*\\* \\| ${operations().length} \\| ${operations().length} \\|`, 'm'))
  })

  it('counts a test call, so an operation no test calls reads as untested', () => {
    const text = conformanceText(root)
    expect(text).toMatch(/^\| `customers\.create` \| `POST \/v1\/customers` \| \d+ \| behaviour \| yes \|$/m)
    expect(text).toMatch(/\| (engine|behaviour) \| — \|$/m)
  }, 60_000)
})

describe('the not-served list', () => {
  it('holds no operation of the catalogue, and no route answers 501', () => {
    expect(
      operations()
        .filter((op) => op.name in NOT_SERVED)
        .map((op) => op.name),
    ).toEqual([])
    expect(routes.filter((r) => r.checksParams === false).map((r) => r.operation)).toEqual([])
  })
})
