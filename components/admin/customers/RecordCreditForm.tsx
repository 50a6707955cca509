// "Record credit" (POST /customers/{customerId}/events): a top-up, refund, usage or adjustment,
// typed in credits and sent as exact micros (src/lib/credits.ts), with a required reason. The
// balance, the ledger and the customer (has_fund) are asked again after it is recorded. A refusal
// (409: the balance would go below zero; 400: bad input) is shown at the form and as a toast.
import { useQueryClient, type QueryClient } from '@tanstack/react-query'
import { Button } from 'flowbite-react'
import { useTranslation } from 'next-i18next/pages'
import { useState, type FormEvent } from 'react'
import { FormMessage, SelectField, TextAreaField, TextField } from '@/components/manage/fields'
import { formatNumber } from '@/components/node/format'
import { useRecordCustomerEvent } from '@/src/api/generated/customers/customers'
import { NewCustomerEventEventType } from '@/src/api/generated/model'
import { recordCustomerEventBodyReasonMax } from '@/src/api/generated/rules.zod'
import { invalidateWhere } from '@/src/api/invalidation'
import { apiErrorMessage } from '@/src/lib/api-error'
import { MAX_AMOUNT_MICROS, formatCredits, parseCredits, usesDecimalComma } from '@/src/lib/credits'
import { notifyError } from '@/src/lib/notify'
import { ledgerEntry } from './ledger'

const TYPES: readonly NewCustomerEventEventType[] = Object.values(NewCustomerEventEventType)

function isRecordType(value: string): value is NewCustomerEventEventType {
  return TYPES.some((type) => type === value)
}

/** Every cached view of the customer: the list (has_fund), the customer, balance and ledger. */
export function invalidateCustomer(queryClient: QueryClient, customerId: string): Promise<void> {
  const own = `/customers/${customerId}`
  return invalidateWhere(
    queryClient,
    (path) => path === '/customers' || path === own || path.startsWith(`${own}/`),
  )
}

export interface RecordCreditFormProps {
  customerId: string
  /** The balance's currency, for showing amounts. */
  currency?: string
}

export function RecordCreditForm({ customerId, currency = 'usd' }: RecordCreditFormProps) {
  const { t, i18n } = useTranslation('common')
  const locale = i18n.language
  const queryClient = useQueryClient()
  const record = useRecordCustomerEvent()
  const [type, setType] = useState<NewCustomerEventEventType>(
    NewCustomerEventEventType.credit_added,
  )
  const [amount, setAmount] = useState('')
  const [reason, setReason] = useState('')
  const [submitted, setSubmitted] = useState(false)
  const [refusal, setRefusal] = useState<string>()
  const [done, setDone] = useState<string>()

  const signed = type === NewCustomerEventEventType.adjustment
  const parsed = parseCredits(amount, { signed, decimalComma: usesDecimalComma(locale) })
  const reasonText = reason.trim()
  const money = (micros: number, sign = false) =>
    formatCredits(micros, locale, { currency, signed: sign })

  const amountProblem = parsed.ok
    ? undefined
    : parsed.problem === 'tooLarge'
      ? t('admin.customers.record.problems.tooLarge', { max: money(MAX_AMOUNT_MICROS) })
      : t(`admin.customers.record.problems.${parsed.problem}`)
  const reasonProblem = !reasonText
    ? t('admin.customers.record.problems.reasonRequired')
    : reason.length > recordCustomerEventBodyReasonMax
      ? t('admin.customers.record.problems.reasonTooLong', {
          max: recordCustomerEventBodyReasonMax,
        })
      : undefined

  const edited = () => {
    setRefusal(undefined)
    setDone(undefined)
  }

  const submit = (event: FormEvent) => {
    event.preventDefault()
    setSubmitted(true)
    if (!parsed.ok || reasonProblem || record.isPending) return
    edited()
    const sent = parsed.micros
    record.mutate(
      { customerId, data: { event_type: type, amount_micros: sent, reason: reasonText } },
      {
        onSuccess: (recorded) => {
          void invalidateCustomer(queryClient, customerId)
          const entry = ledgerEntry(recorded)
          const moved = money(entry.amountMicros ?? sent, true)
          setDone(
            entry.balanceMicros === undefined
              ? t('admin.customers.record.done', { amount: moved })
              : t('admin.customers.record.doneBalance', {
                  amount: moved,
                  balance: money(entry.balanceMicros),
                }),
          )
          setAmount('')
          setReason('')
          setSubmitted(false)
        },
        onError: (error) => {
          const message = apiErrorMessage(error, t)
          setRefusal(message)
          void notifyError(t('admin.customers.record.failed', { message }))
        },
      },
    )
  }

  const preview = parsed.ok
    ? t('admin.customers.record.preview', {
        amount: money(parsed.micros, signed),
        micros: formatNumber(parsed.micros, locale),
      })
    : undefined

  return (
    <form onSubmit={submit} noValidate className="max-w-2xl space-y-5">
      <SelectField
        label={t('admin.customers.record.type')}
        value={type}
        hint={t(`admin.customers.record.typeHints.${type}`)}
        onChange={(event) => {
          if (isRecordType(event.target.value)) setType(event.target.value)
          edited()
        }}
      >
        {TYPES.map((option) => (
          <option key={option} value={option}>
            {t(`admin.customers.types.${option}`)}
          </option>
        ))}
      </SelectField>
      <TextField
        label={t('admin.customers.record.amount')}
        value={amount}
        onChange={(event) => {
          setAmount(event.target.value)
          edited()
        }}
        required
        inputMode="decimal"
        autoComplete="off"
        spellCheck={false}
        hint={
          <>
            {t(
              signed
                ? 'admin.customers.record.amountHintSigned'
                : 'admin.customers.record.amountHint',
            )}
            {preview && (
              <>
                {' '}
                <span className="font-medium text-gray-900 dark:text-white">{preview}</span>
              </>
            )}
          </>
        }
        error={submitted ? amountProblem : undefined}
      />
      <TextAreaField
        label={t('admin.customers.record.reason')}
        value={reason}
        onChange={(event) => {
          setReason(event.target.value)
          edited()
        }}
        required
        rows={2}
        maxLength={recordCustomerEventBodyReasonMax}
        hint={t('admin.customers.record.reasonHint', { max: recordCustomerEventBodyReasonMax })}
        error={submitted ? reasonProblem : undefined}
      />
      <div aria-live="polite" className="empty:hidden">
        {done && <FormMessage kind="success">{done}</FormMessage>}
      </div>
      {refusal && (
        <FormMessage kind="error">
          {t('admin.customers.record.failed', { message: refusal })}
        </FormMessage>
      )}
      <Button type="submit" color="blue" disabled={record.isPending}>
        {record.isPending
          ? t('admin.customers.record.submitting')
          : t('admin.customers.record.submit')}
      </Button>
    </form>
  )
}
