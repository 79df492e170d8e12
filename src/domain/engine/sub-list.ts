/**
 * An empty sub-list (`subscription.items`, `invoice.lines`): the catalogue reads the client's
 * generic list type as `any`, so declarations that carry one say so here.
 *
 * @example
 * subList('/v1/subscription_items?subscription=sub_1') // { object: 'list', data: [], has_more: false, total_count: 0, url }
 */
export function subList(url: string, data: readonly unknown[] = []): Record<string, unknown> {
  return { object: 'list', data: [...data], has_more: false, total_count: data.length, url }
}
