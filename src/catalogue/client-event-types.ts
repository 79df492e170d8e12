/** The event types the official client declares, by kind of payload. */
export interface EventTypes {
  /** Snapshot events (`object: 'event'`), e.g. `customer.created`. */
  readonly snapshot: ReadonlySet<string>
  /** Thin events (`object: 'v2.core.event'`), e.g. `v1.billing.meter.error_report_triggered`. */
  readonly thin: ReadonlySet<string>
}

const NAMED_EVENT = /^"[A-Za-z0-9.]+Event":/
const TYPE_LITERAL = /"type":\{"shape":\{"t":"literal","value":"([a-z0-9_.]+)"\}/

/**
 * The event types declared in a `types.json` text: each `...Event` type's `type` literal, sorted by
 * its `object` (a snapshot event or a thin one). The client's own declarations are the list, so a
 * misspelt type in a command's flag is refused rather than silently never matched.
 *
 * @example
 * eventTypesIn(readFileSync(new URL('./generated/types.json', import.meta.url), 'utf8')).snapshot.has('invoice.paid') // true
 */
export function eventTypesIn(text: string): EventTypes {
  const snapshot = new Set<string>()
  const thin = new Set<string>()
  for (const line of text.split('\n')) {
    if (!NAMED_EVENT.test(line)) continue
    const type = TYPE_LITERAL.exec(line)?.[1]
    if (type === undefined) continue
    if (line.includes('"value":"event"')) snapshot.add(type)
    else if (line.includes('"value":"v2.core.event"')) thin.add(type)
  }
  return { snapshot, thin }
}
