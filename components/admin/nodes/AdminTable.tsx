// The table of an admin list (nodes, publishers): named by its caption, one header cell a column,
// scrolling sideways inside its frame on narrow screens.
import type { ReactNode } from 'react'

/** The cells' padding. */
export const CELL = 'px-3 py-3 align-top'

export interface AdminTableProps {
  caption: string
  /** The column headers. */
  columns: string[]
  /** The narrowest the table gets before it scrolls, a Tailwind class (`min-w-[40rem]`). */
  minWidth: string
  /** The rows. */
  children: ReactNode
}

export function AdminTable({ caption, columns, minWidth, children }: AdminTableProps) {
  return (
    <div className="overflow-x-auto rounded-lg border border-gray-200 dark:border-gray-700">
      <table className={`w-full ${minWidth} text-left text-sm text-gray-800 dark:text-gray-200`}>
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-gray-50 text-xs text-gray-700 uppercase dark:bg-gray-800 dark:text-gray-300">
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col" className={CELL}>
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-gray-200 bg-white dark:divide-gray-700 dark:bg-gray-900">
          {children}
        </tbody>
      </table>
    </div>
  )
}
