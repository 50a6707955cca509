// A fake GitHub Actions OIDC issuer for trying trusted publishing locally and in end-to-end
// tests (server/test/fake-oidc-issuer.ts). Start the API with TRUSTED_PUBLISHING_ISSUER set to
// the address this prints, then request tokens as a workflow would:
//   npx tsx scripts/fake-oidc-issuer.ts 9100
//   curl 'http://127.0.0.1:9100/token?audience=comfy-registry&repository=comfy-demo/comfyui-demo-upscaler&owner_id=160000001&workflow=publish.yml'
// Never point a real deployment at it: anyone can get a token from it.
import { startFakeOidcIssuer } from '../server/test/fake-oidc-issuer'

async function main() {
  const port = Number(process.argv[2] ?? 0)
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`usage: npx tsx scripts/fake-oidc-issuer.ts [port] (got '${process.argv[2]}')`)
  }
  const issuer = await startFakeOidcIssuer({ port })
  console.log(`Fake OIDC issuer at ${issuer.url} (TRUSTED_PUBLISHING_ISSUER=${issuer.url})`)
  const stop = () => void issuer.close().then(() => process.exit(0))
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error)
  process.exit(1)
})
