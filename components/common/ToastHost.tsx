// The toast container of _app, mounted (and its code loaded) when the first notification is
// raised through src/lib/notify.ts.
import dynamic from 'next/dynamic'
import { useEffect, useState } from 'react'
import { onNotification } from '@/src/lib/notify'

const Toasts = dynamic(() => import('./Toasts').then((module) => module.Toasts), { ssr: false })

export function ToastHost() {
  const [needed, setNeeded] = useState(false)
  useEffect(() => onNotification(() => setNeeded(true)), [])
  return needed ? <Toasts /> : null
}
