// The node's licence as people read it: the SPDX identifier (linked to SPDX, its name as a
// tooltip) derived by the API, and a link to the licence file of the latest version's archive.
// `license` itself is shown only when it is plain words (never the JSON comfy-cli sends).
import { useTranslation } from 'next-i18next/pages'
import type { Node } from '@/src/api/generated/model'
import { licenseName, parseLicenseField, spdxUrl } from '@/src/lib/licenses'
import { publicEnv } from '@/src/lib/public-env'
import { versionFileUrl } from '@/src/lib/readme'

const LINK = 'text-blue-700 underline hover:no-underline dark:text-blue-300'

export function LicenseValue({ node }: { node: Node }) {
  const { t } = useTranslation('common')
  const version = node.latest_version?.version
  const file =
    node.license_file && version
      ? versionFileUrl(publicEnv().apiUrl, node.id, version, node.license_file)
      : undefined
  const field = parseLicenseField(node.license)
  // The API derives it; an SPDX field is one even without the derived field.
  const spdx = node.license_spdx ?? (field.kind === 'spdx' ? field.id : undefined)
  const fileLink = (label: string) =>
    file && (
      <a href={file} className={LINK} rel="nofollow">
        {label}
      </a>
    )
  if (spdx) {
    const url = spdxUrl(spdx)
    return (
      <span className="inline-flex flex-wrap justify-end gap-x-2">
        {url ? (
          <a href={url} title={licenseName(spdx)} className={LINK} rel="noopener noreferrer">
            {spdx}
          </a>
        ) : (
          <span>{spdx}</span>
        )}
        {fileLink(t('node.licenseFile'))}
      </span>
    )
  }
  if (field.kind === 'other') return <span>{field.value}</span>
  if (file && node.license_file) return fileLink(node.license_file)
  if (field.kind === 'text') return <span>{t('node.licenseCustom')}</span>
  if (field.kind === 'file') return <span className="font-mono">{field.path}</span>
  return <span>{t('node.notSpecified')}</span>
}
