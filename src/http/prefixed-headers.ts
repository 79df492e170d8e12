// The HTTP layer's entry to the prefixed header names (`Service-Account`, `Service-Version`, ...):
// they are spelled once, in the kernel, and every module of this layer takes them from here.
export { type HeaderNames, headerNames } from '#kernel/header-names.js'
