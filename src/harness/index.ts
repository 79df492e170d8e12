/**
 * `service-sim/harness`: scenarios, replay and fault injection for property tests and CI. Attack a
 * usage reporter and a webhook handler with the faults the real service produces, check the
 * history, shrink any failure and save it as a replayable scenario.
 * Every check and run takes the simulator options a user's tests use (`headerPrefix: 'Stripe'` for
 * the official client's header names, `apiVersion`, `simOptions`, or a prepared `base` simulator).
 *
 * Vocabulary: a usage *reporter* and a webhook *receiver* are the user's code under test (the
 * subjects); a receiver's `handler(req)` answers deliveries. `checkWebhookHandler`,
 * `WebhookHandlerFactory`, `WebhookHandlerEnv`, `WebhookSubject` and `RunOptions` (the scenario
 * runner's) are deprecated aliases of `checkWebhookReceiver`, `WebhookReceiverFactory`,
 * `WebhookReceiverEnv`, `WebhookReceiver` and `ScenarioRunOptions`.
 *
 * One step vocabulary (`stepKinds`: request, parallel, advance, settle, client, receiver, admin,
 * repeat) serves scenario files and generated programs: a program's `Step` is written in it by
 * `toStepSpec` and runs on the same executor. One checker API (`Checker`: a name and
 * `check(history)` naming violations) serves scenarios (`expectations.checkers`) and programs; the
 * trace checkers are `usageChecker`, `clientChecker`, `receiverChecker`, `deliveryChecker` and
 * `billingChecker`, whose function forms `checkUsage`, `checkClient`, `checkReceiver`,
 * `checkDeliveries` and `checkBilling` stay. `TraceCheck` is the deprecated name of that function
 * form (what `Checker` used to name).
 *
 * @example
 * import { checkUsageReporter, loadScenarioFile, referenceUsageReporter, runScenario } from 'service-sim/harness'
 * const result = await checkUsageReporter(referenceUsageReporter, { numRuns: 50, headerPrefix: 'Stripe' })
 * const replay = await runScenario(loadScenarioFile('node_modules/service-sim/scenarios/default.yaml'))
 *
 * @module service-sim/harness
 */

export {
  defaultFaultParams,
  type FaultController,
  type FaultEntry,
  type FaultKind,
  type FaultLogLine,
  type FaultParams,
  type FaultSource,
  type FaultsInput,
  faultKinds,
  faultLog,
  type ResolvedFaultPolicy,
  rateLimitReasons,
  realisticRates,
  resolveFaultPolicy,
} from '#faults/index.js'
export {
  type AppFetch,
  type AppLike,
  type FastifyLike,
  type FetchApp,
  type NodeListener,
  type RequestHandler,
  toAppFetch,
} from './apps/app-fetch.js'
export { fromNodeListener } from './apps/from-node-listener.js'
export {
  type BuiltApp,
  DEFAULT_WEBHOOK_PATH,
  type MountAppOptions,
  type MountedApp,
  mountApp,
} from './apps/mount-app.js'
export { type Resigning, resignDelivery } from './apps/resign-delivery.js'
export { type RunningAppOptions, type RunServer, type ServeRunsOptions, serveRuns } from './apps/serve-runs.js'
export { checkUsageBilling, type UsageBillingOptions, type UsageBillingResult } from './billing-property.js'
export { type CampaignOptions, type CampaignReport, runCampaign } from './campaign.js'
export { billingChecker, checkBilling } from './checkers/billing-checker.js'
export type { Checker, History, TraceCheck } from './checkers/checker.js'
export { checkerRegistry, registerChecker, verdictOf } from './checkers/checker-registry.js'
export { checkClient, clientChecker, MIN_BACKOFF_MS } from './checkers/client-checker.js'
export { deliveriesAcknowledgedChecker } from './checkers/deliveries-acknowledged-checker.js'
export { checkDeliveries, type DeliveryKinds, deliveryChecker, deliveryKinds } from './checkers/delivery-checker.js'
export { deterministicChecker } from './checkers/deterministic-checker.js'
export { checkDunningTrace, type DunningCheckOptions, dunningChecker, dunningRules } from './checkers/dunning-checker.js'
export { checkFlowAdversity } from './checkers/flow-adversity-checker.js'
export {
  checkFulfilmentTrace,
  type FulfilmentCheckOptions,
  fulfilmentChecker,
  fulfilmentRules,
  sessionPaid,
} from './checkers/fulfilment-checker.js'
export { noDuplicateDeliveriesChecker } from './checkers/no-duplicate-deliveries-checker.js'
export { noServerErrorsChecker } from './checkers/no-server-errors-checker.js'
export { checkReceiver, RECEIVER_ANSWER_BUDGET_MS, receiverChecker } from './checkers/receiver-checker.js'
export { signaturesValidChecker } from './checkers/signatures-valid-checker.js'
export {
  type AccessPolicy,
  checkSubscriptionMirrorTrace,
  type MirrorCheckOptions,
  subscriptionMirrorChecker,
  subscriptionMirrorRules,
} from './checkers/subscription-mirror-checker.js'
export { checkUsage, usageChecker } from './checkers/usage-checker.js'
export { recordViolation, type Violation } from './checkers/violation.js'
export { createDurableStore, type DurableStore, type StoredValue } from './durable-store.js'
export { type FailedCheck, formatFailure, type ReplayHint, replayCommand } from './failure-report.js'
export {
  DEFAULT_MAX_FAULTS,
  faultEntry,
  LEGACY_USAGE_WORKLOAD,
  LEGACY_WEBHOOK_WORKLOAD,
  MAX_FAULT_COUNT,
  type ProgramOptions,
  program,
  type UsageWorkload,
  usageFaultKinds,
  usageProgram,
  usageStep,
  type WebhookWorkload,
  webhookFaultKinds,
  webhookFaultKindsFor,
  webhookProgram,
  webhookStep,
} from './fast-check/arbitraries.js'
export { type HarnessCommand, type HarnessModel, harnessCommands } from './fast-check/commands.js'
export { type FlowCampaignOptions, type FlowCampaignReport, runFlowCampaign } from './flow-campaign.js'
export {
  CONNECT_ONBOARDING_EVENT_TYPES,
  connectOnboardingActions,
  connectOnboardingEpisodes,
  connectOnboardingSteps,
  connectOnboardingWorkload,
} from './flows/connect-steps.js'
export { checkDunning } from './flows/dunning-property.js'
export { dunningActions, dunningEpisodes, dunningSteps, dunningWorkload } from './flows/dunning-steps.js'
export type { DunningClient, DunningClientFactory, DunningEnv, DunningNotices } from './flows/dunning-subject.js'
export { dunningSubject } from './flows/dunning-subject.js'
export { type FlowAction, type FlowActionContext, flowActions } from './flows/flow-actions.js'
export { type DeliveryDeploy, type DeliveryFault, FlowCoverage } from './flows/flow-coverage.js'
export { FLOW_ROLL_OVERLAP_MS } from './flows/flow-deploy.js'
export type { AimedStep, EpisodeStep } from './flows/flow-episodes.js'
export {
  adversityStep,
  FLOW_CUSTOMERS,
  FLOW_FORGERIES,
  FLOW_PLANS,
  type FlowAdversity,
  type FlowForgery,
  type FlowProgram,
  type FlowStep,
  type FlowStepPace,
  type FlowWorkload,
  flowFaultKinds,
  flowProgram,
  flowStep,
} from './flows/flow-program.js'
export { checkFlows, type FlowCheckOptions, type FlowCheckResult, minimiseFlow } from './flows/flow-property.js'
export {
  FLOW_FINAL_SETTLE_MS,
  FLOW_STEP_SETTLE_MS,
  type FlowClientEnv,
  type FlowReport,
  type FlowRun,
  type FlowRunOptions,
  type FlowSubject,
  flowRunOf,
} from './flows/flow-run.js'
export { FLOW_EVENT_TYPES, FLOW_RECEIVER_URL, type FlowSetup } from './flows/flow-setup.js'
export { describeFlowProgram, flowStepLabel } from './flows/flow-step-label.js'
export { checkFulfilment, type FulfilmentOptions } from './flows/fulfilment-property.js'
export {
  FULFILMENT_EVENT_TYPES,
  type FulfilmentPayment,
  fulfilmentEpisodes,
  fulfilmentPayments,
  fulfilmentSteps,
  fulfilmentWorkload,
} from './flows/fulfilment-steps.js'
export {
  FULFILMENT_SUCCESS_URL,
  type FulfilmentClient,
  type FulfilmentClientFactory,
  type FulfilmentEnv,
  type FulfilmentOrders,
  type FulfilmentSubjectOptions,
  fulfilmentSubject,
} from './flows/fulfilment-subject.js'
export { impossibleCombination } from './flows/impossible-combinations.js'
export { type FlowCoverageProperty, knownFlowCombinations } from './flows/known-combinations.js'
export { checkSubscriptionMirror, type SubscriptionMirrorOptions } from './flows/mirror-property.js'
export { mirrorEpisodes, mirrorWorkload } from './flows/mirror-steps.js'
export { mirrorSubject, type SubscriptionMirror, type SubscriptionMirrorFactory } from './flows/mirror-subject.js'
export { runFlow } from './flows/run-flow.js'
export { type MirroredSubscription, mirroredFields } from './flows/subscription-fields.js'
export {
  assertRun,
  type CheckOptions,
  type CheckResult,
  checkUsageReporter,
  checkWebhookHandler,
  checkWebhookReceiver,
  minimiseProgram,
  PropertyViolation,
  type WorkloadOptions,
} from './properties.js'
export { type DunningFlaws, makeDunningClient, referenceDunningClient } from './reference/dunning-client.js'
export { buggyDunningClients, buggyFulfilmentClients, buggySubscriptionMirrors } from './reference/flow-variants.js'
export { type FulfilmentFlaws, makeFulfilmentClient, referenceFulfilmentClient } from './reference/fulfilment-client.js'
export {
  makeSubscriptionMirror,
  referenceSubscriptionMirror,
  type SubscriptionMirrorFlaws,
  type SubscriptionMirrorPolicy,
} from './reference/subscription-mirror.js'
export {
  makeUsageReporter,
  REFERENCE_MAX_ATTEMPTS,
  referenceSyncUsageReporter,
  referenceUsageReporter,
  type UsageReporterFlaws,
} from './reference/usage-reporter.js'
export { buggyUsageReporters, buggyWebhookReceivers, type Variant } from './reference/variants.js'
export {
  makeWebhookReceiver,
  RECEIVER_WORK_MS,
  referenceWebhookReceiver,
  type WebhookReceiverFlaws,
} from './reference/webhook-receiver.js'
export { coverageTable } from './report/coverage-table.js'
export { ACK_BEFORE_DURABLE, acknowledgesDurably } from './rules/acknowledges-durably.js'
export { ACK_GENUINE_REFUSED, acknowledgesGenuine } from './rules/acknowledges-genuine.js'
export { type AtMostOnceOptions, atMostOnce } from './rules/at-most-once.js'
export { CausalRecorder, type HandledEvent } from './rules/causal-recorder.js'
export { checkRules, checkRuleTrace, probeRules, type RuleApp, type RuleEnv, ruleSetSubject } from './rules/check-rules.js'
export { type EffectDetail, type EffectRecorder, traceEffectRecorder } from './rules/effect-recorder.js'
export { type ExactlyOnceOptions, exactlyOnce, type FinalStates } from './rules/exactly-once.js'
export { type NeverAfterOptions, neverAfter } from './rules/never-after.js'
export { type ObjectState, objectState, providerState } from './rules/object-state.js'
export { type OnlyWhileOptions, onlyWhile } from './rules/only-while.js'
export type { ProbeContext, Rule } from './rules/rule.js'
export { type AcceptedEvent, describeEffect, type EffectRecord, type RuleHistory, ruleHistory } from './rules/rule-history.js'
export { defineRuleSet, type RuleSet, type RuleSetSpec } from './rules/rule-set.js'
export {
  type ProviderView,
  providerView,
  type StateMatchesOptions,
  type StateProjection,
  stateMatches,
} from './rules/state-matches.js'
export { advance, type Driven, drive } from './run/drive.js'
export { describeProgram, type Forgery, forgeries, type Program, type Step } from './run/program.js'
export {
  HARNESS_EVENT_NAME,
  HARNESS_RECEIVER_URL,
  type HarnessRun,
  type RunOptions as HarnessRunOptions,
  type RunReport,
  runProgram,
  type Subjects,
  startRun,
} from './run/run-program.js'
export { programOf, scenarioOf, writeScenarioFile } from './run/scenario-file.js'
export type { FlowSimOptions, HarnessSimOptions, SimulatorChoice } from './run/simulator-choice.js'
export { loadScenarioFile, parseScenarioText, readScenarioFile } from './scenario/load-scenario.js'
export type { RunResult } from './scenario/run-result.js'
export { type RunOptions, runScenario, type ScenarioRunOptions } from './scenario/run-scenario.js'
export type { Scenario, StepSpec } from './scenario/schema.js'
export { fromStepSpec, toStepSpec } from './steps/program-steps.js'
export { type StepKind, stepKinds } from './steps/step-kinds.js'
export type {
  EffectLog,
  Usage,
  UsageReporter,
  UsageReporterEnv,
  UsageReporterFactory,
  WebhookHandlerEnv,
  WebhookHandlerFactory,
  WebhookReceiver,
  WebhookReceiverEnv,
  WebhookReceiverFactory,
  WebhookSubject,
} from './subjects.js'
export { checkThinEventReceiver, type ThinCheckResult } from './thin/check-thin-event-receiver.js'
export { type ThinRaceProgram, type ThinRaceStep, thinRaceProgram } from './thin/thin-race-program.js'
export { referenceThinEventReceiver, staleThinEventReceiver } from './thin/thin-race-receivers.js'
export {
  runThinRace,
  THIN_RECEIVER_URL,
  type ThinEventReceiverEnv,
  type ThinEventReceiverFactory,
  type ThinRaceReport,
} from './thin/thin-race-run.js'
export { HarnessInputError } from './validate-input.js'
