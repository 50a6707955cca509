// A pack shaped like the popular ones (issue 28), published the way comfy-cli does it: a
// date-stamped version, a pyproject licence table `{"file": "LICENSE"}`, a README with a relative
// image, a release script at the archive root that runs git at its top level (never imported by
// the package), and nodes registered by listing the package's own folder. It goes Active, and a
// visitor reaches its page through a client-side link and reads the README, the licence, the
// classes and the "checks passed" mark. The pack is our own look-alike, not third-party code.
import { expect, test } from './test'
import { strToU8, zipSync } from 'fflate'
import { accountWithPublisher, API_URL, expectNoAxeViolations } from './helpers'

const VERSION = '1.0.2608210019'

const INIT = `import importlib
import os

NODE_CLASS_MAPPINGS = {}
NODE_DISPLAY_NAME_MAPPINGS = {}

_here = os.path.join(os.path.dirname(__file__), "nodes")
for _file in sorted(os.listdir(_here)):
    if not _file.endswith(".py") or _file.startswith("_"):
        continue
    _module = importlib.import_module(f".nodes.{_file[:-3]}", __name__)
    for _name, _cls in _module.NODE_CLASS_MAPPINGS.items():
        NODE_CLASS_MAPPINGS[f"{_name}|lookalike"] = _cls
    for _name, _title in getattr(_module, "NODE_DISPLAY_NAME_MAPPINGS", {}).items():
        NODE_DISPLAY_NAME_MAPPINGS[f"{_name}|lookalike"] = _title
`

function nodeModule(className: string, title: string, category: string) {
  return `class ${className}:
    @classmethod
    def INPUT_TYPES(cls):
        return {"required": {"image": ("IMAGE",), "strength": ("FLOAT", {"default": 1.0})}}

    RETURN_TYPES = ("IMAGE",)
    FUNCTION = "run"
    CATEGORY = "${category}"

    def run(self, image, strength):
        return (image,)


NODE_CLASS_MAPPINGS = {"${className}": ${className}}
NODE_DISPLAY_NAME_MAPPINGS = {"${className}": "${title}"}
`
}

/** A release helper as real packs keep one: git at its top level, run by hand, never imported. */
const RELEASE_SCRIPT = `import subprocess

tag = subprocess.Popen(["git", "describe", "--tags"], stdout=subprocess.PIPE).communicate()[0]
print("releasing", tag.decode().strip())
`

const README = `# Look-alike Filters

Three image filters that register themselves from the \`nodes\` folder.

![Preview of the filters](docs/preview.png)

## Usage

Connect an image and pick a strength. See the [changelog](CHANGELOG.md) for what changed.
`

const MIT = `MIT License

Copyright (c) 2026 Look-alike Filters

Permission is hereby granted, free of charge, to any person obtaining a copy
of this software and associated documentation files (the "Software"), to deal
in the Software without restriction, including without limitation the rights
to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
copies of the Software, and to permit persons to whom the Software is
furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all
copies or substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
SOFTWARE.
`

/** The smallest valid PNG: one transparent pixel. */
const PIXEL_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
)

const CLASSES = [
  ['LookalikeBlur', 'Look-alike Blur'],
  ['LookalikeSharpen', 'Look-alike Sharpen'],
  ['LookalikeTint', 'Look-alike Tint'],
] as const

function packZip(nodeId: string): Uint8Array {
  const files: Record<string, Uint8Array> = {
    [`${nodeId}/__init__.py`]: strToU8(INIT),
    [`${nodeId}/release.py`]: strToU8(RELEASE_SCRIPT),
    [`${nodeId}/README.md`]: strToU8(README),
    [`${nodeId}/LICENSE`]: strToU8(MIT),
    [`${nodeId}/docs/preview.png`]: new Uint8Array(PIXEL_PNG),
    [`${nodeId}/pyproject.toml`]: strToU8(
      `[project]\nname = "${nodeId}"\nversion = "${VERSION}"\nlicense = { file = "LICENSE" }\n`,
    ),
  }
  for (const [className, title] of CLASSES) {
    files[`${nodeId}/nodes/${className.toLowerCase()}.py`] = strToU8(
      nodeModule(className, title, 'image/lookalike'),
    )
  }
  return zipSync(files)
}

test('a pack shaped like the popular ones publishes Active with its README, licence and dynamically registered classes', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000)
  const owner = await accountWithPublisher(request, 'real', 'Look-alike Studio')
  const nodeId = `lookalike-filters-${owner.stamp}`
  const nodeName = 'Look-alike Filters'

  // comfy-cli: the token in the body, then the zip PUT to the upload link.
  const published = await request.post(
    `${API_URL}/publishers/${owner.publisherId}/nodes/${nodeId}/versions`,
    {
      data: {
        personal_access_token: owner.secret,
        node: {
          id: nodeId,
          name: nodeName,
          description: 'Image filters that register themselves from their nodes folder.',
          repository: `https://github.com/e2e-owner/${nodeId}`,
          license: '{"file": "LICENSE"}',
        },
        node_version: { version: VERSION, changelog: 'Date-stamped release.', dependencies: [] },
      },
    },
  )
  expect(published.status()).toBe(201)
  const { signedUrl } = (await published.json()) as { signedUrl: string }
  const upload = await request.put(signedUrl, {
    headers: { 'Content-Type': 'application/zip' },
    data: Buffer.from(packZip(nodeId)),
  })
  expect(upload.status()).toBe(200)

  // The pipeline decides: Active, nothing found, every class extracted.
  await expect
    .poll(
      async () => {
        const response = await request.get(`${API_URL}/nodes/${nodeId}/versions/${VERSION}`)
        return ((await response.json()) as { status?: string }).status
      },
      { timeout: 30_000 },
    )
    .toBe('NodeVersionStatusActive')

  // A visitor finds the pack on its publisher's page and follows the link, client-side.
  await page.goto(`/publishers/${owner.publisherId}`)
  await page.evaluate(() => {
    window.__realPackJourney = 'same document'
  })
  await page.getByRole('link', { name: nodeName }).first().click()
  await expect(page).toHaveURL(new RegExp(`/nodes/${nodeId}$`))
  expect(await page.evaluate(() => window.__realPackJourney)).toBe('same document')
  await expect(page.getByRole('heading', { level: 1, name: nodeName })).toBeVisible()

  const install = page.getByRole('region', { name: 'Install' })
  await expect(install).toContainText(`Installs version ${VERSION}`)

  // Dynamically registered classes, with the pack's own suffix.
  const comfyNodes = page.getByRole('region', { name: 'Nodes in the latest version' })
  for (const [className, title] of CLASSES) {
    const item = comfyNodes.getByRole('listitem').filter({
      has: page.getByRole('heading', { level: 3, name: title }),
    })
    await expect(item.getByText(`${className}|lookalike`)).toBeVisible()
  }

  // The README from the archive: its text, its image served by the API, the dead link dropped.
  const readme = page.getByRole('region', { name: 'README' })
  await expect(readme).toContainText('Three image filters that register themselves')
  const preview = readme.getByRole('img', { name: 'Preview of the filters' })
  await expect(preview).toBeVisible()
  await expect.poll(() => preview.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(1)
  await expect(readme.getByRole('link', { name: 'changelog' })).toHaveCount(0)
  await expect(readme).toContainText('See the changelog for what changed.')

  // The licence identified from the LICENSE file the pyproject names, with a link to that file.
  const licence = page
    .locator('dt', { hasText: /^License$/ })
    .locator('xpath=following-sibling::dd[1]')
  await expect(licence.getByRole('link', { name: 'MIT', exact: true })).toBeVisible()
  const licenceFile = licence.getByRole('link', { name: 'License file' })
  const licenceHref = await licenceFile.getAttribute('href')
  expect(licenceHref).toBeTruthy()
  const served = await request.get(licenceHref ?? '')
  expect(served.status()).toBe(200)
  expect(served.headers()['content-type']).toContain('text/plain')
  expect(await served.text()).toContain('Permission is hereby granted')
  await expect(page.getByText('{"file": "LICENSE"}')).toHaveCount(0)

  // Nothing was found: the release script's git call is never imported, so no false alarm.
  const version = page.getByRole('listitem').filter({
    has: page.getByRole('heading', { level: 3, name: VERSION, exact: true }),
  })
  await expect(version).toContainText('Checks passed')
  const api = await request.get(`${API_URL}/nodes/${nodeId}/versions/${VERSION}`)
  expect(((await api.json()) as { checks_passed?: boolean }).checks_passed).toBe(true)

  await expectNoAxeViolations(page)
})

declare global {
  interface Window {
    /** Set in the page to prove that the link kept the same document. */
    __realPackJourney?: string
  }
}
