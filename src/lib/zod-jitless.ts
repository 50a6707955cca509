// zod (behind the contract's generated rules) probes for eval with `new Function('')` when it
// makes its first object schema. Under the website's CSP, which allows no eval, the probe is
// reported as a violation even though zod copes with the refusal; `jitless` skips the probe.
// It is set on zod's own config store on globalThis, before any page module loads zod, so this
// module does not load zod itself (pages/_app.tsx imports it first).
declare global {
  var __zod_globalConfig: { jitless?: boolean } | undefined
}

globalThis.__zod_globalConfig = { ...globalThis.__zod_globalConfig, jitless: true }

export {}
