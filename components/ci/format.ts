// Durations and memory of CI results, in the reader's language (Intl names the units). The same
// on the server and in the browser: nothing here depends on the clock or the time zone.

const unitFormats = new Map<string, Intl.NumberFormat>()

function unitFormat(locale: string, unit: string, fractionDigits = 0): Intl.NumberFormat {
  const key = `${locale}:${unit}:${fractionDigits}`
  let format = unitFormats.get(key)
  if (!format) {
    format = new Intl.NumberFormat(locale, {
      style: 'unit',
      unit,
      unitDisplay: 'short',
      maximumFractionDigits: fractionDigits,
    })
    unitFormats.set(key, format)
  }
  return format
}

/**
 * A run's length from its start and end (Unix seconds): "45 sec", "2 min 10 sec", "1 hr 5 min".
 * Undefined when either is missing or the end is before the start.
 */
export function formatDuration(
  start: number | undefined,
  end: number | undefined,
  locale: string,
): string | undefined {
  if (start === undefined || end === undefined || end < start) return undefined
  const total = Math.round(end - start)
  const hours = Math.floor(total / 3600)
  const minutes = Math.floor((total % 3600) / 60)
  const seconds = total % 60
  const parts: string[] = []
  if (hours) parts.push(unitFormat(locale, 'hour').format(hours))
  if (minutes) parts.push(unitFormat(locale, 'minute').format(minutes))
  // Seconds matter under an hour only.
  if (!hours && (seconds || parts.length === 0)) {
    parts.push(unitFormat(locale, 'second').format(seconds))
  }
  return parts.join(' ')
}

const MB_PER_GB = 1024

/** Video memory reported in MB: "512 MB" below a gigabyte, else "5.9 GB". */
export function formatVram(megabytes: number | undefined, locale: string): string | undefined {
  if (megabytes === undefined || !Number.isFinite(megabytes) || megabytes < 0) return undefined
  if (megabytes < MB_PER_GB) return unitFormat(locale, 'megabyte').format(Math.round(megabytes))
  return unitFormat(locale, 'gigabyte', 1).format(megabytes / MB_PER_GB)
}
