import { operations, typeShape } from '#catalogue/index.js'
import { referenceNames } from '#catalogue/references.js'
import type { CatalogueView } from './catalogue-view.js'

/** The generated catalogue as the engine reads it (one object, so per-catalogue caches hit). */
export const catalogueView: CatalogueView = { operations, typeShape, referenceNames }
