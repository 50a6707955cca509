// The GitHub Actions steps that publish a node through trusted publishing, as the node's settings
// show them (docs/PUBLISHING.md has the whole workflow and explains each step).

import { DEFAULT_TRUSTED_PUBLISHING_AUDIENCE } from './constants'

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

/**
 * The workflow's permissions and job: exchange the OIDC token for a publish token, then
 * `comfy node publish`. docs/PUBLISHING.md shows the same steps (a test keeps them equal).
 */
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
    '  id-token: write # lets the job request a GitHub OIDC token; nothing else',
    '',
    'jobs:',
    '  publish:',
    '    runs-on: ubuntu-latest',
    ...(environment ? [`    environment: ${environment}`] : []),
    '    env:',
    `      REGISTRY: ${apiUrl.replace(/\/+$/, '')}`,
    `      NODE_ID: ${nodeId}`,
    '    steps:',
    '      - uses: actions/checkout@v4',
    '',
    '      - uses: actions/setup-python@v5',
    '        with:',
    "          python-version: '3.12'",
    '',
    '      - name: Install comfy-cli',
    '        run: pip install comfy-cli',
    '',
    '      - name: Exchange the OIDC token for a publish token',
    '        run: |',
    '          set -euo pipefail',
    "          # 1. GitHub's OIDC token for this job, with the registry as its audience.",
    '          oidc=$(curl -sSf -H "Authorization: Bearer $ACTIONS_ID_TOKEN_REQUEST_TOKEN" \\',
    `            "$ACTIONS_ID_TOKEN_REQUEST_URL&audience=${DEFAULT_TRUSTED_PUBLISHING_AUDIENCE}" | jq -r .value)`,
    '          # 2. The registry checks it and answers a publish token for this node (≤ 15 minutes,',
    '          #    one publish). Its refusals say what did not match.',
    '          answer=$(curl -sS -w \'\\n%{http_code}\' -X POST "$REGISTRY/trusted-publishing/exchange" \\',
    "            -H 'Content-Type: application/json' \\",
    '            -d "$(jq -n --arg token "$oidc" --arg node "$NODE_ID" \'{token: $token, node_id: $node}\')")',
    '          status=$(tail -n1 <<<"$answer"); body=$(sed \'$d\' <<<"$answer")',
    '          if [ "$status" != 200 ]; then echo "::error::$(jq -r .message <<<"$body")"; exit 1; fi',
    '          token=$(jq -r .token <<<"$body")',
    '          echo "::add-mask::$token"',
    '          echo "PUBLISH_TOKEN=$token" >> "$GITHUB_ENV"',
    '',
    '      - name: Publish',
    '        run: comfy --skip-prompt --no-enable-telemetry node publish --token "$PUBLISH_TOKEN"',
  ]
  return `${lines.join('\n')}\n`
}
