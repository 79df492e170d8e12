import type { ResourceDeclaration } from './engine/declaration.js'
import { withGenerics } from './engine/generic.js'
import { declarations } from './resource-declarations.js'
import type { ResourcePorts } from './resource-ports.js'

/**
 * Every resource the engine serves: the declarations written by hand (`index.ts`), then a generic
 * one for every other object type the catalogue answers (see `generic.ts`).
 *
 * @example
 * servedDeclarations.find((d) => d.object === 'issuing.card')?.idPrefix // 'ic'
 */
export const servedDeclarations: readonly ResourceDeclaration<ResourcePorts>[] = withGenerics(declarations)
