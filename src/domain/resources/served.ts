import type { ResourceDeclaration } from '../engine/declaration.js'
import { withGenerics } from './generic.js'
import { declarations } from './index.js'
import type { ResourcePorts } from './ports.js'

/**
 * Every resource the engine serves: the declarations written by hand (`index.ts`), then a generic
 * one for every other object type the catalogue answers (see `generic.ts`).
 *
 * @example
 * servedDeclarations.find((d) => d.object === 'issuing.card')?.idPrefix // 'ic'
 */
export const servedDeclarations: readonly ResourceDeclaration<ResourcePorts>[] = withGenerics(declarations)
