// A rate-limited call (429) is explained in the reader's language with the wait from Retry-After;
// other failures keep the server's message.
import fs from 'node:fs'
import path from 'node:path'
import { apiErrorMessage } from '@/src/lib/api-error'
import { LANGUAGES } from '@/src/lib/constants'

type Messages = { manage: { errors: Record<string, string> } }

function translator(language: string) {
  const file = path.join(process.cwd(), 'public', 'locales', language, 'common.json')
  const messages = JSON.parse(fs.readFileSync(file, 'utf8')) as Messages
  return (key: string, options: Record<string, unknown> = {}) => {
    const text = messages.manage.errors[key.replace('manage.errors.', '')] ?? key
    return text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(options[name]))
  }
}

const failed = (status: number, data: unknown, headers: Record<string, string> = {}) => ({
  isAxiosError: true as const,
  response: { status, data, headers },
})

const limited = failed(
  429,
  {
    error: 'Too Many Requests',
    message: 'Too many changes by your account. Try again in 42 seconds.',
  },
  { 'retry-after': '42' },
)

describe('apiErrorMessage', () => {
  it.each(LANGUAGES.map((language) => language.code))('says when to try again in %s', (code) => {
    const t = translator(code)
    const message = apiErrorMessage(limited, t)
    expect(message).toBe(t('manage.errors.tooManyRequests', { seconds: 42 }))
    expect(message).toContain('42')
    expect(message).not.toContain('manage.errors')
    expect(message).not.toContain('{{')
  })

  it('has a message without Retry-After', () => {
    const message = apiErrorMessage(failed(429, {}), translator('en'))
    expect(message).toMatch(/too many requests/i)
    expect(message).not.toMatch(/\d/)
  })

  it('keeps the server message for other failures', () => {
    const error = failed(400, { error: 'Bad Request', message: 'Invalid field.' })
    expect(apiErrorMessage(error, translator('en'))).toBe('Invalid field.')
  })
})
