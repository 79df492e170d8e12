import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createSimulator } from 'service-sim'
import {
  advance,
  checkDunning,
  checkFulfilment,
  checkSubscriptionMirror,
  checkThinEventReceiver,
  checkUsageBilling,
  coverageTable,
  describeEffect,
  describeProgram,
  drive,
  faultLog,
  flowProgram,
  flowRunOf,
  flowStepLabel,
  formatFailure,
  fromStepSpec,
  fulfilmentEpisodes,
  fulfilmentSteps,
  HarnessInputError,
  loadScenarioFile,
  minimiseProgram,
  noServerErrorsChecker,
  parseScenarioText,
  programOf,
  providerState,
  providerView,
  readScenarioFile,
  recordViolation,
  referenceDunningClient,
  referenceFulfilmentClient,
  referenceSubscriptionMirror,
  referenceThinEventReceiver,
  referenceUsageReporter,
  registerChecker,
  resignDelivery,
  resolveFaultPolicy,
  ruleHistory,
  ruleSetSubject,
  runCampaign,
  runFlowCampaign,
  runScenario,
  runThinRace,
  scenarioOf,
  serveRuns,
  staleThinEventReceiver,
  thinRaceProgram,
  toStepSpec,
  usageChecker,
  usageProgram,
  usageStep,
  verdictOf,
  webhookFaultKindsFor,
  writeScenarioFile,
} from 'service-sim/harness'
import { describe, expect, it } from 'vitest'

const program = { seed: 1, steps: [{ kind: 'report' as const, units: 1, value: 1 }], faults: [] }
const hostile = [undefined, null, 'hostile', 42, Number.NaN, [], () => 'x'] as const

/** Each call must throw (or reject with) a HarnessInputError whose message starts with the export's name. */
async function refusedNaming(api: string, call: () => unknown): Promise<string> {
  let error: unknown
  try {
    await call()
  } catch (e) {
    error = e
  }
  expect(error, `${api} accepted hostile input`).toBeInstanceOf(Error)
  expect((error as Error).message).toMatch(new RegExp(`^${api}: `))
  return (error as Error).message
}

describe('hostile arguments to the harness exports', () => {
  it('drive and advance refuse a missing simulator, work that is no promise and a budget that is no duration, naming the argument', async () => {
    const sim = createSimulator({ seed: 1 })
    for (const value of hostile) {
      await expect(drive(value as never, Promise.resolve(1), 1000)).rejects.toThrow(HarnessInputError)
      await expect(advance(value as never, 1000)).rejects.toThrow(/^advance: sim must be a simulator/)
    }
    await expect(drive(sim, 'work' as never, 1000)).rejects.toThrow('drive: work must be a promise, got a string ("work")')
    for (const budget of [Number.NaN, Number.POSITIVE_INFINITY, -1, '1000'])
      await expect(drive(sim, Promise.resolve(1), budget as never)).rejects.toThrow(
        /^drive: budgetMs must be a finite, non-negative number/,
      )
    const before = sim.clock.now
    for (const ms of [Number.NaN, Number.POSITIVE_INFINITY, -5, '60000'])
      await expect(advance(sim, ms as never)).rejects.toThrow(/^advance: ms must be a finite, non-negative number/)
    expect(sim.clock.now).toBe(before)
    await expect(drive(sim, Promise.resolve(7), 1000)).resolves.toEqual({ state: 'ok', value: 7 })
  })

  it('faultLog refuses what is not a trace, naming itself, and skips holes in one', () => {
    for (const value of [undefined, null, 'trace', 42, {}])
      expect(() => faultLog(value as never)).toThrow(/^faultLog: expected a run's trace entries/)
    expect(faultLog([null, 42] as never)).toEqual([])
  })

  it('the scenario file readers and writers refuse a path or scenario of the wrong kind, naming the export, and write nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hostile-scenarios-'))
    for (const value of hostile.filter((v) => typeof v !== 'string')) {
      await refusedNaming('readScenarioFile', () => readScenarioFile(value as never))
      await refusedNaming('loadScenarioFile', () => loadScenarioFile(value as never))
      await refusedNaming('parseScenarioText', () => parseScenarioText(value as never, 'x.yaml'))
      await refusedNaming('writeScenarioFile', () => writeScenarioFile(value as never, scenarioOf(program, { name: 'x' })))
    }
    for (const value of hostile) {
      await refusedNaming('writeScenarioFile', () => writeScenarioFile(dir, value as never))
      await refusedNaming('programOf', () => programOf(value))
      await refusedNaming('scenarioOf', () => scenarioOf(value as never, { name: 'x' }))
      await refusedNaming('scenarioOf', () => scenarioOf(program, value as never))
    }
    // A name that would make the file name leave the directory is refused before anything is written.
    const escaping = { ...scenarioOf(program, { name: 'x' }), name: '../../escaped' }
    expect(() => writeScenarioFile(dir, escaping)).toThrow(/^writeScenarioFile: scenario is not a scenario at 'name'/)
    expect(readdirSync(dir)).toEqual([])
    expect(() => programOf({ name: 'x', workload: 'steps' })).toThrow(/^programOf: input is not a scenario at 'workload'/)
    // A file that is not JSON, or missing, is a ScenarioError naming the file, as loadScenarioFile words it.
    const bad = join(dir, 'bad.json')
    writeFileSync(bad, '{ not json')
    expect(() => readScenarioFile(bad)).toThrow(/bad\.json:1: not valid JSON/)
    expect(() => readScenarioFile(join(dir, 'missing.json'))).toThrow(/missing\.json: no such file/)
    const written = writeScenarioFile(dir, scenarioOf(program, { name: 'ok' }))
    expect(readScenarioFile(written).program).toEqual(program)
  })

  it('the step, program and report helpers refuse input of the wrong kind, naming the export', async () => {
    const calls: [string, (v: unknown) => unknown][] = [
      ['describeProgram', (v) => describeProgram(v as never)],
      ['toStepSpec', (v) => toStepSpec(v as never)],
      ['fromStepSpec', (v) => fromStepSpec(v as never)],
      ['minimiseProgram', (v) => minimiseProgram(v as never, async () => false)],
      ['minimiseProgram', (v) => minimiseProgram(program, (typeof v === 'function' ? 'x' : v) as never)],
      ['formatFailure', (v) => formatFailure(v as never)],
      ['flowStepLabel', (v) => flowStepLabel(v as never)],
      ['ruleHistory', (v) => ruleHistory(v as never)],
      ['describeEffect', (v) => describeEffect(v as never)],
      ['providerState', (v) => providerState(v as never, 'cus_1')],
      ['recordViolation', (v) => recordViolation(v as never, 'message', [])],
      ['resignDelivery', (v) => resignDelivery(v as never, '{}', 'stale' as never)],
      ['runThinRace', (v) => runThinRace(v as never, referenceThinEventReceiver)],
      ['verdictOf', (v) => verdictOf(v as never, { entries: [], requests: [], deliveries: [] })],
      ['verdictOf', (v) => verdictOf(usageChecker, v as never)],
      ['registerChecker', (v) => registerChecker(v as never)],
      ['resignDelivery', (v) => resignDelivery('t=1,v1=a', '{}', v as never)],
      ['runScenario', (v) => runScenario(v as never)],
      ['serveRuns', (v) => serveRuns((v ?? null) as never)],
    ]
    for (const [api, call] of calls)
      for (const value of [undefined, null, 42, () => 'x']) await refusedNaming(api, () => call(value))
    for (const value of [undefined, null, 'trace', 42]) {
      expect(() => coverageTable(value as never)).toThrow(/^coverageTable: coverage must be an object/)
      expect(() => usageChecker.check(value as never)).toThrow(/^checker 'usage' check: history must be a history/)
      expect(() => noServerErrorsChecker.check(value as never)).toThrow(/^checker 'no-server-errors' check: history/)
    }
    for (const port of [Number.NaN, -1, 70_000, 1.5])
      await expect(serveRuns({ port })).rejects.toThrow(
        `serveRuns: option 'port' must be a port number from 0 to 65535, got ${port}`,
      )
    for (const faults of [undefined, null, 'realistic'])
      expect(() => resolveFaultPolicy(faults as never, undefined as never)).toThrow(
        /^resolveFaultPolicy: option 'faults' must be an object/,
      )
    for (const env of [undefined, null, 42, {}]) expect(flowRunOf(env as never)).toBeUndefined()
    expect(() => fromStepSpec({} as never)).toThrow('fromStepSpec: not a harness step: {}')
    expect(() => resignDelivery('t=1,v1=a', '{}', {} as never)).toThrow(/^resignDelivery: how's runSecrets must be an array/)
    // The checks cost nothing on what a run gives them.
    expect(usageChecker.check({ entries: [], requests: [], deliveries: [] })).toEqual([])
  })

  it('the generators refuse options that are no object or counts that are none, instead of failing inside fast-check', () => {
    const calls: [string, () => unknown][] = [
      ['usageStep', () => usageStep(null as never)],
      ['usageProgram', () => usageProgram(42 as never)],
      ['webhookFaultKindsFor', () => webhookFaultKindsFor('replay' as never)],
      ['flowProgram', () => flowProgram({ maxSteps: Number.NaN })],
      ['flowProgram', () => flowProgram(null as never)],
      ['fulfilmentSteps', () => fulfilmentSteps(undefined as never)],
      ['fulfilmentEpisodes', () => fulfilmentEpisodes(Number.POSITIVE_INFINITY)],
      ['thinRaceProgram', () => thinRaceProgram(Number.NaN)],
    ]
    for (const [api, call] of calls) expect(call).toThrow(new RegExp(`^${api}: `))
  })

  it('runCampaign refuses runs that never end and options that are no object, before sampling any program', async () => {
    await expect(
      runCampaign({ runs: Number.POSITIVE_INFINITY, step: usageStep(), reporter: referenceUsageReporter }),
    ).rejects.toThrow("runCampaign: option 'runs' must be a positive integer, got Infinity")
    await expect(runCampaign({ runs: Number.NaN, step: usageStep(), reporter: referenceUsageReporter })).rejects.toThrow(
      HarnessInputError,
    )
    await expect(runCampaign(null as never)).rejects.toThrow('runCampaign: options must be an object, got null')
  })

  it('the ready-made properties refuse options that are no object instead of running their defaults on them', async () => {
    const checks: [string, (o: unknown) => Promise<unknown>][] = [
      ['checkSubscriptionMirror', (o) => checkSubscriptionMirror(referenceSubscriptionMirror, o as never)],
      ['checkFulfilment', (o) => checkFulfilment(referenceFulfilmentClient, o as never)],
      ['checkDunning', (o) => checkDunning(referenceDunningClient, o as never)],
      ['checkUsageBilling', (o) => checkUsageBilling(referenceUsageReporter, o as never)],
      ['checkThinEventReceiver', (o) => checkThinEventReceiver(referenceThinEventReceiver, o as never)],
    ]
    for (const [api, check] of checks)
      for (const options of [null, 42, 'fast', []])
        await expect(check(options)).rejects.toThrow(new RegExp(`^${api}: options must be an options object`))
    await expect(checkUsageBilling(() => 'no reporter' as never)).rejects.toThrow(
      'checkUsageBilling: reporter factory must return { report }',
    )
    await expect(checkThinEventReceiver(referenceThinEventReceiver, { numRuns: 1, maxSteps: Number.NaN })).rejects.toThrow(
      "checkThinEventReceiver: option 'maxSteps' must be a positive integer, got NaN",
    )
    await expect(checkDunning(referenceDunningClient, { numRuns: 1, workload: null as never })).rejects.toThrow(
      "checkDunning: option 'workload' must be an object",
    )
  })

  it('names the export a user called, not the runner it hands the work to', async () => {
    await expect(checkThinEventReceiver(() => 'no receiver' as never, { numRuns: 1 })).rejects.toThrow(
      /^checkThinEventReceiver: receiver factory must return \{ handler, state \}/,
    )
    await expect(runThinRace({} as never, referenceThinEventReceiver)).rejects.toThrow(
      /^runThinRace: program 'seed' must be an integer/,
    )
    await expect(runCampaign({ step: usageStep() } as never)).rejects.toThrow(/^runCampaign: options must give a subject to test/)
    await expect(runFlowCampaign(() => ({}) as never, { runs: 1 })).rejects.toThrow(
      /^runFlowCampaign: the subject maker must return a flow subject \{ start, checkpoint, check \}/,
    )
  })

  it('refuses what is not a run, an effect record or an app environment, naming the export', () => {
    expect(() => providerView({} as never)).toThrow(/^providerView: run\.sim must be a simulator/)
    expect(() => describeEffect({} as never)).toThrow(
      /^describeEffect: effect must be an effect record \{ event, read, provider \}/,
    )
    expect(() => ruleSetSubject(undefined as never, undefined as never, 'x')).toThrow(
      /^ruleSetSubject: factory must be a function/,
    )
    expect(() => referenceSubscriptionMirror(undefined as never)).toThrow(/^referenceSubscriptionMirror: env must be an object/)
    expect(() => referenceSubscriptionMirror({} as never)).toThrow(
      /^referenceSubscriptionMirror: env\.secrets must be a function/,
    )
    expect(() => referenceThinEventReceiver(undefined as never)).toThrow(/^referenceThinEventReceiver: env must be an object/)
    expect(() => staleThinEventReceiver({} as never)).toThrow(/^staleThinEventReceiver: env\.fetch must be a function/)
  })
})
