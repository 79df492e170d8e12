import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  adminApi,
  adminCallsInProse,
  adminRouteProblem,
  cliHelp,
  cliProblem,
  commandLines,
  curlProblem,
  type DocLine,
} from './command-lines.js'
import { packedFiles, root, shippedDocs } from './shipped-docs.js'

/**
 * The command lines and HTTP calls the shipped docs tell a reader to type. A `service-sim` line
 * must name a command and flags the CLI's own `--help` lists; a `curl` line must reach a route the
 * shipped OpenAPI document declares, with the method it takes, the admin token and the JSON content
 * type serve requires (or an API key for the service's own paths); a `METHOD /__sim/...` in prose
 * must be a declared route. What the calls then do is covered by the serve and CLI tests.
 */
const docs = shippedDocs(packedFiles())
const texts = docs.map((doc) => ({ doc, text: readFileSync(join(root, doc), 'utf8') }))
const lines = texts.flatMap(({ doc, text }) => commandLines(doc, text))
const segments = (l: DocLine) => l.text.split(/\s*(?:&&|\|\||;|\|)\s*/).map((text) => ({ ...l, text }))
const where = (l: DocLine, problem: string) => `${l.doc}:${l.line} ${l.text}: ${problem}`

describe('the command lines of the shipped docs', () => {
  const help = cliHelp()
  const api = adminApi()

  it('name only commands and flags the CLI takes', () => {
    const cli = lines.flatMap(segments).filter((s) => /^(npx )?service-sim\s/.test(s.text))
    expect(cli.length).toBeGreaterThan(15)
    expect(cli.flatMap((s) => (cliProblem(s.text, help) === null ? [] : [where(s, cliProblem(s.text, help)!)]))).toEqual([])
  }, 60_000)

  it('send every curl to a declared route with the method, admin token and content type serve requires', () => {
    const curls = lines.flatMap(segments).filter((s) => s.text.startsWith('curl '))
    expect(curls.length).toBeGreaterThanOrEqual(2)
    expect(curls.flatMap((s) => (curlProblem(s.text, api) === null ? [] : [where(s, curlProblem(s.text, api)!)]))).toEqual([])
  })

  it('name only declared admin routes in prose', () => {
    const calls = texts.flatMap(({ doc, text }) => adminCallsInProse(doc, text))
    expect(calls.length).toBeGreaterThan(10)
    const problems = calls.flatMap((c) => {
      const [method, path] = c.text.split(' ') as [string, string]
      const problem = adminRouteProblem(method, path.replace(/<[^>]+>|\.\.\./g, 'x'), api)
      return problem === null ? [] : [where(c, problem)]
    })
    expect(problems).toEqual([])
  })

  it('catch an unknown command or flag, a curl without the token, and a route that does not exist', () => {
    expect(cliProblem('npx service-sim serve --header-perfix Stripe', help)).toMatch(/serve has no --header-perfix/)
    expect(cliProblem('service-sim launch', help)).toMatch(/'launch' is not a command/)
    expect(cliProblem('npx service-sim replay usage-to-invoice --out reports', help)).toBeNull()
    expect(
      curlProblem(
        `curl -X POST http://127.0.0.1:12111/__sim/customer/checkout/cs_x/complete -H 'Content-Type: application/json' -d '{}'`,
        api,
      ),
    ).toMatch(/no admin token/)
    expect(curlProblem(`curl -X POST -H 'Authorization: Bearer t' http://127.0.0.1:12111/__sim/nowhere`, api)).toMatch(
      /no admin route/,
    )
    expect(curlProblem(`curl -X GET -H 'Authorization: Bearer t' http://127.0.0.1:12111/__sim/settle`, api)).toMatch(
      /takes POST, not GET/,
    )
    expect(curlProblem(`curl -X POST -H 'Authorization: Bearer t' http://127.0.0.1:12111/__sim/settle`, api)).toMatch(/415/)
  })
})

/**
 * The lines that finish on their own (`scenarios` and `replay` of a bundled scenario) run as
 * written in a fresh folder, as a user's shell would run them (the package's bin for `npx
 * service-sim`), and leave their reports where the docs say. The others start a server or a
 * campaign of hundreds of seeds: the checks above and the CLI's own tests cover them.
 */
describe('the finite command lines of the shipped docs', () => {
  const finite = [
    ...new Set(
      lines
        .flatMap(segments)
        .map((s) => s.text.replace(/^npx /, ''))
        .filter((t) => /^service-sim (scenarios|replay)( [\w.-]+)*$/.test(t) && !t.includes('--served')),
    ),
  ]

  it('include the scenario list and replays by name, with and without --out', () => {
    expect(finite).toEqual(
      expect.arrayContaining([
        'service-sim scenarios',
        'service-sim replay usage-to-invoice',
        'service-sim replay usage-to-invoice --out reports',
        'service-sim replay',
      ]),
    )
  })

  for (const line of finite) {
    it(`runs ${line} as written`, () => {
      const work = mkdtempSync(join(tmpdir(), 'service-sim-docs-cli-'))
      try {
        const args = line.replace(/^service-sim /, '').split(' ')
        const r = spawnSync(process.execPath, [join(root, 'bin', 'service-sim.js'), ...args], {
          cwd: work,
          encoding: 'utf8',
          env: { ...process.env, CI: '1' },
          timeout: 120_000,
        })
        expect(r.status, `${r.stdout}${r.stderr}`).toBe(0)
        if (args[0] !== 'replay') return
        // The report goes where the docs say: .service-sim/reports/<scenario>/<seed>/, or under --out.
        const scenario = args[1] !== undefined && !args[1].startsWith('-') ? args[1] : 'default'
        const out = args.includes('--out') ? args[args.indexOf('--out') + 1]! : '.service-sim/reports'
        const seed = /seed (\d+)/.exec(r.stdout)?.[1]
        expect(seed, r.stdout).toBeDefined()
        for (const file of ['report.json', 'report.md', 'report.html'])
          expect(existsSync(join(work, out, scenario, seed!, file)), `${out}/${scenario}/${seed}/${file}`).toBe(true)
        if (scenario === 'default') expect(seed).toBe('42')
      } finally {
        rmSync(work, { recursive: true, force: true })
      }
    }, 180_000)
  }
})
