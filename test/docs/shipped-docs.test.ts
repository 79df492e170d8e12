import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync, rmSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  describeMention,
  mentionsIn,
  packedFiles,
  REPO_BLOB,
  root,
  shippedDocs,
  shippedReading,
  trackedFiles,
  unshippedMentions,
} from './shipped-docs.js'

/**
 * The docs a user gets with the package speak of what they have: the package's own files, the
 * public imports and `npx service-sim`. A repository path, a repository-only `npm run` script or a
 * link to a file that does not ship sends them looking for something they cannot find.
 */
describe('the shipped docs', () => {
  const files = packedFiles()
  const docs = shippedDocs(files)

  it('are the README, the changelog and the user guides; the contributor docs stay in the repository', () => {
    expect(docs).toEqual(expect.arrayContaining(['README.md', 'CHANGELOG.md', 'docs/getting-started.md', 'docs/serve.md']))
    expect(docs.length).toBeGreaterThan(15)
    const contributors = ['docs/architecture.md', 'docs/performance.md', 'docs/decisions.md', 'CONTRIBUTING.md']
    expect(
      docs.filter((d) => contributors.includes(d) || d.startsWith('docs/decisions/') || d.startsWith('docs/internals/')),
    ).toEqual([])
  })

  it('are every one named in the README', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8')
    const guides = docs.filter((d) => /^docs\/[\w-]+\.md$/.test(d))
    expect(guides.filter((g) => !readme.includes(`\`${g}\``))).toEqual([])
  })

  it('name no path, page or script that does not ship, and link only to shipped files or tracked ones in the repository (the examples and scenarios too)', () => {
    const reading = shippedReading(files)
    expect(reading).toEqual(expect.arrayContaining(['docs/admin-api.openapi.yaml', 'scenarios/default.yaml']))
    expect(reading.filter((f) => f.startsWith('examples/')).length).toBeGreaterThan(3)
    expect(unshippedMentions(reading, files).map(describeMention)).toEqual([])
  })

  it('catch a repository path, a repository script, a dead link and a contributor page, naming the line', () => {
    const text = [
      'Intro',
      'See `src/kernel/clock.ts` and run `npm run bench`.',
      'Read [the decisions](../docs/decisions.md) or [gone](nowhere.md); `architecture.md` too.',
      `A dead repository link: [x](${REPO_BLOB}docs/no-such-page.md); a live one: [y](${REPO_BLOB}README.md).`,
      'Your own `test/first.test.ts` and the shipped `docs/serve.md` are fine.',
    ].join('\n')
    expect(mentionsIn('docs/example.md', text, files, trackedFiles()).map(describeMention)).toEqual([
      'docs/example.md:3 links to a file that does not ship: ../docs/decisions.md',
      'docs/example.md:3 links to a file that does not ship: nowhere.md',
      `docs/example.md:4 links to a file the repository does not have: ${REPO_BLOB}docs/no-such-page.md`,
      'docs/example.md:2 names a repository path that does not ship: src/kernel/clock.ts',
      'docs/example.md:3 names a page that does not ship: architecture.md',
      "docs/example.md:2 runs a script of the repository's package.json: npm run bench",
    ])
  })

  it('include the API reference, generated from the TSDoc with no warning, naming only what ships', () => {
    // As the package's prepack makes it (`npm run docs`), into a folder of the tests' own.
    const out = join(root, 'test', '.generated', 'api')
    rmSync(out, { recursive: true, force: true })
    execFileSync(process.execPath, [join(root, 'node_modules', 'typedoc', 'bin', 'typedoc'), '--out', out], {
      cwd: root,
      stdio: 'pipe',
    })
    const pages = readdirSync(out, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/api/${f}`)
    expect(pages).toEqual(
      expect.arrayContaining([
        'docs/api/index.md',
        'docs/api/service-sim.md',
        'docs/api/service-sim/harness.md',
        'docs/api/service-sim/vitest.md',
        'docs/api/service-sim/msw.md',
      ]),
    )
    const tracked = trackedFiles()
    const mentions = pages.flatMap((page) =>
      mentionsIn(page, readFileSync(join(out, relative('docs/api', page)), 'utf8'), [...files, ...pages], tracked),
    )
    expect(mentions.map(describeMention)).toEqual([])
  }, 120_000)
})
