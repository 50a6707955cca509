// A small accessible menu button (WAI-ARIA menu pattern): the button toggles a list of
// menuitems; arrow keys, Home and End move between them, Escape closes and returns focus.
import {
  useCallback,
  useEffect,
  useId,
  useRef,
  useState,
  type KeyboardEvent,
  type ReactNode,
} from 'react'

export interface MenuButtonProps {
  /** The menu's accessible name. */
  label: string
  /** The button's accessible name when its content does not give one. */
  buttonLabel?: string
  /** What the button shows. */
  button: ReactNode
  buttonClassName?: string
  /** The menu's content: elements with role="menuitem"; choosing one closes the menu. */
  children: ReactNode
  menuClassName?: string
}

const ITEM_SELECTOR = '[role="menuitem"]'

export function MenuButton({
  label,
  buttonLabel,
  button,
  buttonClassName,
  children,
  menuClassName,
}: MenuButtonProps) {
  const [open, setOpen] = useState(false)
  const id = useId()
  const rootRef = useRef<HTMLDivElement>(null)
  const buttonRef = useRef<HTMLButtonElement>(null)
  const menuRef = useRef<HTMLDivElement>(null)

  const items = () =>
    Array.from(menuRef.current?.querySelectorAll<HTMLElement>(ITEM_SELECTOR) ?? [])
  const close = useCallback((returnFocus = true) => {
    setOpen(false)
    if (returnFocus) buttonRef.current?.focus()
  }, [])

  useEffect(() => {
    if (!open) return
    items()[0]?.focus()
    const onPointerDown = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) close(false)
    }
    document.addEventListener('pointerdown', onPointerDown)
    return () => document.removeEventListener('pointerdown', onPointerDown)
  }, [open, close])

  const onMenuKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const list = items()
    const index = list.indexOf(document.activeElement as HTMLElement)
    const focus = (next: number) => list[(next + list.length) % list.length]?.focus()
    switch (event.key) {
      case 'ArrowDown':
        event.preventDefault()
        focus(index + 1)
        break
      case 'ArrowUp':
        event.preventDefault()
        focus(index - 1)
        break
      case 'Home':
        event.preventDefault()
        focus(0)
        break
      case 'End':
        event.preventDefault()
        focus(list.length - 1)
        break
      case 'Escape':
        event.preventDefault()
        close()
        break
      case 'Tab':
        close(false)
        break
    }
  }

  return (
    <div ref={rootRef} className="sm:relative">
      <button
        ref={buttonRef}
        type="button"
        aria-label={buttonLabel}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        className={buttonClassName}
        onClick={() => setOpen((value) => !value)}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' && !open) {
            event.preventDefault()
            setOpen(true)
          }
        }}
      >
        {button}
      </button>
      {open && (
        <div
          ref={menuRef}
          id={id}
          role="menu"
          aria-label={label}
          tabIndex={-1}
          onKeyDown={onMenuKeyDown}
          onClick={(event) => {
            if ((event.target as HTMLElement).closest(ITEM_SELECTOR)) close()
          }}
          className={
            // Under the whole header on small screens (the nav is the positioned parent), else under the button.
            'absolute z-50 mt-2 rounded-lg max-sm:inset-x-4 max-sm:top-full sm:right-0 sm:min-w-48 sm:max-w-80 border border-gray-200 bg-white py-1 shadow-lg dark:border-gray-600 dark:bg-gray-800 ' +
            (menuClassName ?? '')
          }
        >
          {children}
        </div>
      )}
    </div>
  )
}

/** Classes of a menu item (link or button). */
export const MENU_ITEM_CLASS =
  'block w-full px-4 py-2 text-left text-sm text-gray-800 hover:bg-gray-100 focus:bg-gray-100 focus:outline-none dark:text-gray-100 dark:hover:bg-gray-700 dark:focus:bg-gray-700'

/** Class of an icon button in the header, styled in styles/globals.css (on every page, 5 times). */
export const ICON_BUTTON_CLASS = 'icon-button'
