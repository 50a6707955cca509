// CI results over the API: a job posts its result with a CI token (re-sent by job id, the commit
// stored once per repository in any case), its output files are served, and anyone reads the
// results, the per-commit summary (a failure wins per operating system), the branches and one
// result; refusals leave everything as it was.
import type { Schemas } from '../http/operations'
import { snapshotState } from '../test/data'
import {
  BACKENDS,
  createTestApp,
  expectErrorBody,
  request,
  send,
  type TestApp,
} from '../test/harness'

type WorkflowResult = Schemas['WorkflowResult']
type Upload = Schemas['CiArtifactUpload']

jest.setTimeout(60_000)

const TOKEN = 'ci-token-b'
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex')
const HASH_A = 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678'
const HASH_B = 'b1b2c3d4e5f60718293a4b5c6d7e8f9012345678'

function upload(overrides: Partial<Upload> = {}): Upload {
  return {
    // Not the demo CI results' repository (server/seed/ci.ts).
    repo: 'ci-tests/ComfyUI',
    branch_name: 'master',
    commit_hash: HASH_A,
    commit_time: '2026-11-20T10:00:00.000Z',
    commit_message: 'Faster samplers\n\nLonger description.',
    author: 'comfy',
    job_id: 'job-linux-1',
    run_id: 'run-1',
    workflow_name: 'sd15-basic',
    os: 'linux',
    gpu_type: 'RTX 4090',
    python_version: '3.12',
    pytorch_version: '2.5.1',
    status: 'completed',
    start_time: 1_763_632_800,
    end_time: 1_763_632_860,
    avg_vram: 5_000,
    peak_vram: 7_500,
    machine_stats: { cpu: 'x86_64', ram_gb: 64 },
    ...overrides,
  }
}

describe.each(BACKENDS)('CI results on %s', (backend) => {
  let h: TestApp

  beforeAll(async () => {
    h = await createTestApp({
      postgres: backend === 'postgres',
      nodes: 1,
      publishers: 1,
      env: { CI_UPLOAD_TOKENS: `ci-token-a, ${TOKEN}` },
    })
  })

  afterAll(async () => {
    await h?.close()
  })

  const post = (body: unknown, token = TOKEN) =>
    send<WorkflowResult>(h.app, 'POST', '/upload-artifact', {
      body,
      headers: { 'x-ci-token': token },
    })

  it('refuses a missing or unknown token, and bad uploads, storing nothing', async () => {
    const before = await snapshotState(h.db, h.storage)
    expectErrorBody(await send(h.app, 'POST', '/upload-artifact', { body: upload() }), 400)
    expect(expectErrorBody(await post(upload(), 'ci-token'), 401).message).toContain(
      'CI_UPLOAD_TOKENS',
    )
    const badFile = { name: 'out.png', content_type: 'image/png' as const, data_base64: '%%%' }
    expectErrorBody(await post(upload({ output_files: [badFile] })), 400)
    const twice = { name: 'a.png', content_type: 'image/png' as const, data_base64: 'AAAA' }
    expectErrorBody(await post(upload({ output_files: [twice, twice] })), 400)
    expectErrorBody(await post({ ...upload(), status: 'exploded' }), 400)
    expectErrorBody(await post(upload({ commit_hash: 'not-a-hash' })), 400)
    expect(await snapshotState(h.db, h.storage)).toBe(before)
  })

  it('stores a result by job id, updates it when re-sent, and serves its files', async () => {
    const first = await post(
      upload({
        status: 'started',
        output_files: [
          { name: 'grid.png', content_type: 'image/png', data_base64: PNG.toString('base64') },
        ],
      }),
    )
    expect(first.status).toBe(200)
    expect(first.body).toMatchObject({
      status: 'started',
      operating_system: 'linux',
      git_repo: 'ci-tests/ComfyUI',
      commit: { commit_hash: HASH_A, commit_name: 'Faster samplers', branch_name: 'master' },
    })
    const [fileUrl] = first.body.output_files ?? []
    const file = await request(h.app, { method: 'GET', url: new URL(fileUrl).pathname })
    expect(file.response.headers['content-type']).toBe('image/png')
    expect(Buffer.from(file.response.rawPayload)).toEqual(PNG)

    // Same job, another spelling of the repository: the same result and commit.
    const again = await post(
      upload({
        repo: 'CI-Tests/comfyui',
        commit_hash: HASH_A.toUpperCase(),
        status: 'completed',
        output_files: [
          { name: 'final.png', content_type: 'image/png', data_base64: PNG.toString('base64') },
        ],
      }),
    )
    expect(again.body).toMatchObject({ id: first.body.id, status: 'completed' })
    expect(again.body.commit?.id).toBe(first.body.commit?.id)
    expect(again.body.output_files).toEqual([expect.stringMatching(/final\.png$/)])
    const old = await request(h.app, { method: 'GET', url: new URL(fileUrl).pathname })
    expect(old.status).toBe(404)

    const one = await send<WorkflowResult>(h.app, 'GET', `/workflowresult/${first.body.id}`)
    expect(one.body).toMatchObject({ id: first.body.id, job_id: 'job-linux-1', avg_vram: 5000 })
    expectErrorBody(await send(h.app, 'GET', '/workflowresult/not-a-uuid'), 404)
    expectErrorBody(
      await send(h.app, 'GET', '/workflowresult/6f1c2a52-0000-4000-8000-000000000000'),
      404,
    )
  })

  it('summarises commits newest first, a failure winning per operating system', async () => {
    await post(upload({ job_id: 'job-win-1', os: 'windows', status: 'completed' }))
    await post(
      upload({ job_id: 'job-win-2', os: 'windows', workflow_name: 'flux', status: 'failed' }),
    )
    await post(upload({ job_id: 'job-mac-1', os: 'macos', status: 'started' }))
    await post(
      upload({
        job_id: 'job-b-linux',
        commit_hash: HASH_B,
        commit_time: '2026-11-21T10:00:00.000Z',
        commit_message: 'Newer',
        branch_name: 'release',
      }),
    )
    const summary = await send<Schemas['GitCommitSummaryListResponse']>(
      h.app,
      'GET',
      '/gitcommitsummary?repoName=CI-TESTS/comfyui',
    )
    expect(summary.body.commit_summaries.map((row) => row.commit_hash)).toEqual([HASH_B, HASH_A])
    expect(summary.body.commit_summaries[1].status_summary).toEqual({
      linux: 'completed',
      windows: 'failed',
      macos: 'started',
    })
    const master = await send<Schemas['GitCommitSummaryListResponse']>(
      h.app,
      'GET',
      '/gitcommitsummary?repoName=ci-tests/ComfyUI&branchName=master&pageSize=1',
    )
    expect(master.body).toMatchObject({ totalNumberOfPages: 1 })
    expect(master.body.commit_summaries.map((row) => row.commit_hash)).toEqual([HASH_A])

    const branches = await send(h.app, 'GET', '/branch?repo_name=CI-Tests/ComfyUI')
    expect(branches.body).toEqual({ branches: ['master', 'release'] })
    expect((await send(h.app, 'GET', '/branch?repo_name=someone/else')).body).toEqual({
      branches: [],
    })
  })

  it('lists results by commit, operating system, workflow and branch, a page at a time', async () => {
    type Page = Schemas['GitCommitResultsResponse']
    const list = async (query: string) =>
      (await send<Page>(h.app, 'GET', `/gitcommit?repoName=ci-tests/ComfyUI&${query}`)).body
    const all = await list('pageSize=100')
    expect(all.jobResults).toHaveLength(5)
    expect(all.jobResults[0].commit?.commit_hash).toBe(HASH_B)
    expect((await list(`commitId=${HASH_A.slice(0, 8)}`)).jobResults).toHaveLength(4)
    const byId = await list(`commitId=${all.jobResults[0].commit?.id}`)
    expect(byId.jobResults.map((row) => row.job_id)).toEqual(['job-b-linux'])
    expect((await list('operatingSystem=windows')).jobResults).toHaveLength(2)
    expect((await list('workflowName=flux')).jobResults.map((row) => row.job_id)).toEqual([
      'job-win-2',
    ])
    expect((await list('branch=release')).jobResults).toHaveLength(1)
    const second = await list('pageSize=2&page=2')
    expect(second.totalNumberOfPages).toBe(3)
    expect(second.jobResults.map((row) => row.id)).toEqual(
      all.jobResults.slice(2, 4).map((row) => row.id),
    )
  })
})
