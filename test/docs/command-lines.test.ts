import { readFileSync } from 'node:fs'
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
