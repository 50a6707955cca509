// The signed-in user's own credit account (/account): balance (GET /customers/balance), API keys
// and ledger (GET /customers/events, filter and page in the address). Someone without a credit
// account yet (the balance answers 404) is told what it is for and can open one
// (GET /customers/me opens it) or simply create a key, which opens it too.
import { keepPreviousData, useMutation, useQueryClient } from '@tanstack/react-query'
import { Button } from 'flowbite-react'
import { useRouter } from 'next/router'
import { useTranslation } from 'next-i18next/pages'
import { BalanceBody, Section } from '@/components/admin/customers/CustomerDetail'
import { LedgerView, ledgerParams } from '@/components/admin/customers/CustomerLedger'
import { ledgerHref, readLedgerState } from '@/components/admin/customers/customer-url'
import { FormMessage } from '@/components/manage/fields'
import { MUTED } from '@/components/manage/styles'
import {
  getAuthenticatedCustomer,
  useGetCustomerBalance,
  useGetCustomerEvents,
} from '@/src/api/generated/customers/customers'
import { invalidateWhere } from '@/src/api/invalidation'
import { apiErrorMessage, errorStatus } from '@/src/lib/api-error'
import { ACCOUNT_PATH } from '@/src/lib/paths'
import { ApiKeysSection } from './ApiKeysSection'

/** The first screen of someone who has no credit account yet. */
function OpenAccount() {
  const { t } = useTranslation('common')
  const queryClient = useQueryClient()
  const open = useMutation({
    mutationFn: () => getAuthenticatedCustomer(),
    onSuccess: () => invalidateWhere(queryClient, (path) => path.startsWith('/customers/')),
  })
  return (
    <Section id="account-open" title={t('account.open.title')}>
      <div className="space-y-4">
        <p className={MUTED}>{t('account.open.body')}</p>
        {open.isError && (
          <FormMessage kind="error">
            {t('account.open.failed', { message: apiErrorMessage(open.error, t) })}
          </FormMessage>
        )}
        <Button color="blue" disabled={open.isPending} onClick={() => open.mutate()}>
          {open.isPending ? t('account.open.opening') : t('account.open.submit')}
        </Button>
      </div>
    </Section>
  )
}

function Ledger({ currency }: { currency?: string }) {
  const { t } = useTranslation('common')
  const router = useRouter()
  const state = readLedgerState(router.query)
  const events = useGetCustomerEvents(ledgerParams(state), {
    query: { enabled: router.isReady, placeholderData: keepPreviousData },
  })
  return (
    <LedgerView
      events={events}
      state={state}
      hrefFor={(ledger) => ledgerHref(ACCOUNT_PATH, ledger)}
      currency={currency}
      caption={t('account.ledger.caption')}
    />
  )
}

export function Account() {
  const { t } = useTranslation('common')
  const balance = useGetCustomerBalance()
  const noAccount = balance.isError && errorStatus(balance.error) === 404
  return (
    <div className="space-y-6">
      {noAccount ? (
        <OpenAccount />
      ) : (
        <Section id="account-balance" title={t('account.balance.title')}>
          <BalanceBody balance={balance} />
        </Section>
      )}
      <ApiKeysSection />
      {!noAccount && (
        <Section id="account-ledger" title={t('account.ledger.title')}>
          <p className={`mb-4 text-sm ${MUTED}`}>{t('account.ledger.intro')}</p>
          <Ledger currency={balance.data?.currency} />
        </Section>
      )}
    </div>
  )
}
