import { type CatalogueView, resolve } from './catalogue-view.js'

const eventSets = new WeakMap<CatalogueView, ReadonlySet<string>>()

/**
 * The snapshot event types of the catalogue (the `type` literals of the `Event` union), read once:
 * every member's type resolved, so only for a type whose member is not named after it.
 *
 * @example
 * eventTypesOf(catalogueView).has('invoiceitem.created') // true
 */
function eventTypesOf(view: CatalogueView): ReadonlySet<string> {
  const known = eventSets.get(view)
  if (known !== undefined) return known
  const out = new Set<string>()
  for (const name of eventMembersOf(view)) {
    const literal = eventLiteralOf(view, name)
    if (literal !== undefined) out.add(literal)
  }
  eventSets.set(view, out)
  return out
}

const eventMembers = new WeakMap<CatalogueView, ReadonlySet<string>>()
const eventChecks = new WeakMap<CatalogueView, Map<string, boolean>>()

/** The type names of the `Event` union's members (`CustomerCreatedEvent`), from its one shape. */
function eventMembersOf(view: CatalogueView): ReadonlySet<string> {
  const known = eventMembers.get(view)
  if (known !== undefined) return known
  const event = view.typeShape('Event')
  const out = new Set<string>()
  for (const member of event?.t === 'union' ? event.of : []) if (member.t === 'ref') out.add(member.name)
  eventMembers.set(view, out)
  return out
}

/** The `type` literal of one event member type. */
function eventLiteralOf(view: CatalogueView, name: string): string | undefined {
  const s = resolve(view, { t: 'ref', name })
  const type = s.t === 'object' ? s.fields.type?.shape : undefined
  return type?.t === 'literal' && typeof type.value === 'string' ? type.value : undefined
}

/**
 * Whether the catalogue has a snapshot event of this type. Its member is looked up by the name
 * the type spells (`customer.created` → `CustomerCreatedEvent`), so an emit reads one event's type
 * instead of all of them (which a fresh process's first create would pay); a type spelled
 * otherwise (`invoiceitem.created`) falls back to the whole list.
 *
 * @example
 * isEventType(catalogueView, 'customer.created') // true
 * isEventType(catalogueView, 'customer.archived') // false
 */
export function isEventType(view: CatalogueView, type: string): boolean {
  let checked = eventChecks.get(view)
  if (checked === undefined) {
    checked = new Map()
    eventChecks.set(view, checked)
  }
  const known = checked.get(type)
  if (known !== undefined) return known
  const name = `${type.replace(/(?:^|[._])([a-z0-9])/g, (_, c: string) => c.toUpperCase())}Event`
  const named = eventMembersOf(view).has(name) && eventLiteralOf(view, name) === type
  const is = named || eventTypesOf(view).has(type)
  checked.set(type, is)
  return is
}
