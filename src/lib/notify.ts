// Notifications. react-toastify, and the container _app mounts for it (components/common/
// ToastHost.tsx), load with the first notification, not with every page: a notification raised
// before the container is up waits in react-toastify's own queue and shows once it mounts.

const firstNotificationListeners = new Set<() => void>()

/** Calls `listener` whenever a notification is raised; returns unsubscribe. */
export function onNotification(listener: () => void): () => void {
  firstNotificationListeners.add(listener)
  return () => void firstNotificationListeners.delete(listener)
}

export async function notifyError(message: string): Promise<void> {
  for (const listener of firstNotificationListeners) listener()
  const { toast } = await import('react-toastify')
  toast.error(message)
}

export async function notifySuccess(message: string): Promise<void> {
  for (const listener of firstNotificationListeners) listener()
  const { toast } = await import('react-toastify')
  toast.success(message)
}
