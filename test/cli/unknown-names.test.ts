import { describe, expect, it } from 'vitest'
import { COMMAND_FLAGS, COMMAND_NAMES, type FlagSpec } from '../../src/cli/command-flags.js'
import { eventList } from '../../src/cli/serve-forwarding.js'
import { run } from './in-process.js'

/** Every command with every flag it declares, read off the CLI's one table of flags. */
const flags = COMMAND_NAMES.flatMap((command) =>
  Object.entries(COMMAND_FLAGS[command] as Record<string, FlagSpec>).map(([flag, spec]) => ({ command, flag, spec })),
)

describe('every public entry of the CLI refuses what it does not know', () => {
  it.each(['replya', 'srve', 'trigerr', 'scenario', 'opem'])("refuses the command '%s' naming the one meant", async (typo) => {
    const r = await run([typo])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(new RegExp(`unknown command '${typo}'; did you mean '(${COMMAND_NAMES.join('|')})'\\?`))
    expect((await run(['help', typo])).code).toBe(2)
  })

  it('refuses a command nothing resembles by listing the commands', async () => {
    const r = await run(['billing'])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(`unknown command 'billing'; expected one of ${COMMAND_NAMES.map((c) => `'${c}'`).join(', ')}`)
  })

  it.each(flags)('$command refuses --$flag misspelt, naming --$flag', async ({ command, flag }) => {
    const r = await run([command, `--${flag}${flag.at(-1)}`])
    expect(r.code, r.stdout + r.stderr).toBe(2)
    expect(r.stderr).toContain(`service-sim ${command}: unknown option '--${flag}${flag.at(-1)}'; did you mean '--${flag}'?`)
  })

  it.each(flags)('$command documents --$flag in its help', async ({ command, flag }) => {
    const r = await run([command, '--help'])
    expect(r.code).toBe(0)
    expect(r.stdout).toContain(`--${flag}`)
  })

  it.each(flags.filter((f) => f.spec.type === 'string'))(
    '$command refuses --$flag without its value',
    async ({ command, flag }) => {
      const r = await run([command, `--${flag}`])
      expect(r.code, r.stdout + r.stderr).toBe(2)
      expect(r.stderr).toContain(`--${flag}: expected a value`)
    },
  )

  it.each(flags.filter((f) => f.spec.integer))('$command refuses --$flag abc as no integer', async ({ command, flag }) => {
    const r = await run([command, `--${flag}`, 'abc'])
    expect(r.code, r.stdout + r.stderr).toBe(2)
    expect(r.stderr).toContain(`--${flag}: expected an integer >= 0`)
  })

  it.each(flags.filter((f) => f.spec.choices !== undefined))(
    '$command refuses a misspelt value of --$flag, naming the value meant',
    async ({ command, flag, spec }) => {
      for (const meant of spec.choices ?? []) {
        const typo = `${meant.slice(0, 2)}${meant.slice(3)}`
        const r = await run([command, `--${flag}`, typo])
        expect(r.code, r.stdout + r.stderr).toBe(2)
        expect(r.stderr).toContain(`unknown --${flag} value '${typo}'; did you mean '${meant}'?`)
      }
    },
  )

  it('refuses replay --seed abc as fuzz does, before running anything', async () => {
    for (const command of ['replay', 'fuzz']) {
      const r = await run([command, '--seed', 'abc', '--no-report'].slice(0, command === 'fuzz' ? 3 : 4))
      expect(r.code, command).toBe(2)
      expect(r.stderr, command).toContain("--seed: expected an integer >= 0 and <= 9007199254740991, got 'abc'")
      expect(r.stdout, command).toBe('')
    }
  })

  it('refuses serve --header-prefix Strpe with the prefix meant, and a prefix that is neither', async () => {
    const typo = await run(['serve', '--header-prefix', 'Strpe'])
    expect(typo.code).toBe(2)
    expect(typo.stderr).toContain("unknown --header-prefix value 'Strpe'; did you mean 'Stripe'?")
    const other = await run(['serve', '--header-prefix', 'Acme'])
    expect(other.stderr).toContain("unknown --header-prefix value 'Acme'; expected one of 'Stripe', 'Service'")
  })

  it('refuses a misspelt event type of serve --events and --thin-events, naming the type meant', async () => {
    const snapshot = await run(['serve', '--forward-to', 'http://127.0.0.1:9/hook', '--events', 'customer.created,invoice.payed'])
    expect(snapshot.code).toBe(2)
    expect(snapshot.stderr).toContain(
      "--events: 'invoice.payed' is not an event type the provider sends; did you mean 'invoice.paid'?",
    )
    const thin = await run([
      'serve',
      '--forward-thin-to',
      'http://127.0.0.1:9/thin',
      '--thin-events',
      'v1.billing.meter.error_report_trigered',
    ])
    expect(thin.code).toBe(2)
    expect(thin.stderr).toContain("did you mean 'v1.billing.meter.error_report_triggered'?")
  })

  it('takes the event types the spec names beyond the official client (charge.created) in serve --events', () => {
    expect(eventList('--events', 'charge.created, checkout_sessions.completed', 'snapshot')).toEqual([
      'charge.created',
      'checkout_sessions.completed',
    ])
  })
})
