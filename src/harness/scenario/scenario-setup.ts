import { StepFailure } from '../steps/step-context.js'
import { mountReceiver } from './scenario-receivers.js'
import { accountId, type ScenarioRun } from './scenario-run.js'
import type { Scenario } from './schema.js'
import { sendRequest } from './send-request.js'

type Setup = Scenario['setup']

function createAccounts(run: ScenarioRun, accounts: Setup['accounts']): void {
  for (const a of accounts) {
    const account = run.sim.admin.createAccount({
      ...(a.email ? { email: a.email } : {}),
      ...(a.country ? { country: a.country } : {}),
      ...(a.type ? { type: a.type } : {}),
      ...(a.metadata ? { metadata: a.metadata } : {}),
      ...(a.api_version ? { apiVersion: a.api_version } : {}),
    })
    run.accounts.set(a.name, account.id)
    run.vars[a.name] = { id: account.id }
  }
}

function createOrganisations(run: ScenarioRun, organisations: Setup['organisations']): void {
  for (const o of organisations) {
    const org = run.sim.admin.createOrganisation({ name: o.name, accounts: o.accounts.map((a) => accountId(run, a)) })
    run.vars[o.name] = { id: org.id }
  }
}

/** POSTs one setup object through the service; anything but 200 fails the setup, naming the section. */
async function create(
  run: ScenarioRun,
  what: string,
  path: string,
  request: { as: string; mode?: 'test' | 'live'; body: object },
) {
  const res = await sendRequest(run, { method: 'POST', path, ...request }, 'setup')
  if (res.status !== 200) throw new StepFailure(`${what}: POST ${path} answered ${res.status} ${res.body?.error?.message ?? ''}`)
  return res.body
}

async function createMeters(run: ScenarioRun, meters: Setup['meters']): Promise<void> {
  for (const m of meters) {
    run.vars[m.name] = await create(run, `setup.meters '${m.name}'`, '/v1/billing/meters', {
      as: m.account ?? 'platform',
      body: {
        display_name: m.display_name ?? m.name,
        event_name: m.event_name,
        default_aggregation: { formula: 'sum' },
        ...(m.customer_key ? { customer_mapping: { type: 'by_id', event_payload_key: m.customer_key } } : {}),
        ...(m.value_key ? { value_settings: { event_payload_key: m.value_key } } : {}),
      },
    })
  }
}

async function createDestinations(run: ScenarioRun, destinations: Setup['destinations']): Promise<void> {
  for (const d of destinations) {
    const body = await create(run, `setup.destinations '${d.name}'`, '/v2/core/event_destinations', {
      as: d.account ?? 'platform',
      ...(d.mode ? { mode: d.mode } : {}),
      body: {
        name: d.name,
        type: 'webhook_endpoint',
        events_from: d.events_from,
        event_payload: d.event_payload,
        enabled_events: d.enabled_events,
        webhook_endpoint: { url: d.url },
        include: ['webhook_endpoint.signing_secret'],
        ...(d.api_version ? { snapshot_api_version: d.api_version } : {}),
      },
    })
    run.destinations.set(d.name, body.id)
    run.vars[d.name] = body
  }
}

/**
 * Makes the scenario's setup, in order: accounts, organisations, meters and destinations (through
 * the service), then mounts the receivers.
 *
 * @example
 * await setUpScenario(run)
 */
export async function setUpScenario(run: ScenarioRun): Promise<void> {
  const s = run.scenario.setup
  createAccounts(run, s.accounts)
  createOrganisations(run, s.organisations)
  await createMeters(run, s.meters)
  await createDestinations(run, s.destinations)
  for (const r of s.receivers) await mountReceiver(run, r)
}
