// The GitHub Actions steps that publish a node through trusted publishing, as the node's settings
// show them (docs/PUBLISHING.md has the whole workflow and explains each step).

/** The audience the registry expects in GitHub's OIDC token (TRUSTED_PUBLISHING_AUDIENCE). */
export const TRUSTED_PUBLISHING_AUDIENCE = 'comfy-registry'

/** owner and name of a github.com repository URL, to prefill the form; undefined otherwise. */
export function githubRepositoryOf(
  url: string | undefined,
): { owner: string; name: string } | undefined {
  const match =
    /^(?:https?:\/\/)?(?:www\.)?github\.com\/([A-Za-z0-9-]+)\/([A-Za-z0-9_.-]+?)(?:\.git)?\/?$/i.exec(
      url?.trim() ?? '',
    )
  return match ? { owner: match[1], name: match[2] } : undefined
}

/** The job's steps: exchange the OIDC token for a publish token, then `comfy node publish`. */
export function publishSteps({
  apiUrl,
  nodeId,
  environment,
}: {
  apiUrl: string
  nodeId: string
  environment?: string
}): string {
  const lines = [
    'permissions:',
    '  contents: read',
    '  id-token: write # lets the job ask GitHub for an OIDC token',
    'jobs:',
    '  publish:',
    '    runs-on: ubuntu-latest',
    ...(environment ? [`    environment: ${environment}`] : []),
    '    steps:',
    '      - uses: actions/checkout@v4',
    '      - name: Exchange the OIDC token for a publish token',
    '        id: registry',
    '        run: |',
    '          oidc=$(curl -sSf -H "Authorization: bearer $ACTIONS_ID_TOKEN_REQUEST_TOKEN" \\',
    `            "$ACTIONS_ID_TOKEN_REQUEST_URL&audience=${TRUSTED_PUBLISHING_AUDIENCE}" | jq -r .value)`,
    `          token=$(jq -n --arg token "$oidc" '{token: $token, node_id: "${nodeId}"}' |`,
    '            curl -sSf -X POST -H "Content-Type: application/json" --data @- \\',
    `            ${apiUrl.replace(/\/+$/, '')}/trusted-publishing/exchange | jq -r .token)`,
    '          echo "::add-mask::$token"',
    '          echo "token=$token" >> "$GITHUB_OUTPUT"',
    '      - uses: actions/setup-python@v5',
    "        with: { python-version: '3.12' }",
    '      - run: pip install comfy-cli',
    '      - run: comfy --skip-prompt --no-enable-telemetry node publish --token "${{ steps.registry.outputs.token }}"',
  ]
  return `${lines.join('\n')}\n`
}
