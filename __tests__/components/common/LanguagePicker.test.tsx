import { fireEvent, screen, within } from '@testing-library/react'
import { LanguagePicker } from '@/components/common/LanguagePicker'
import { renderWithProviders } from '../../test-utils'

const NATIVE_NAMES = ['English', '中文', '日本語', 'Français', 'Español', '한국어', 'Русский']

function openPicker(name: RegExp) {
  fireEvent.click(screen.getByRole('button', { name }))
  return screen.getByRole('menu')
}

describe('LanguagePicker (seed section 1)', () => {
  afterEach(() => {
    document.cookie = 'NEXT_LOCALE=; path=/; max-age=0'
    localStorage.clear()
    window.location.hash = ''
  })

  it('lists the seven languages under their native names, the current one in bold', () => {
    renderWithProviders(<LanguagePicker />, { locale: 'ja' })
    const menu = openPicker(/日本語/)
    const items = within(menu).getAllByRole('menuitem')
    expect(items.map((item) => item.textContent)).toEqual(NATIVE_NAMES)
    const current = within(menu).getByRole('menuitem', { name: '日本語' })
    expect(current).toHaveAttribute('aria-current', 'true')
    expect(current).toHaveClass('font-bold')
    for (const item of items.filter((element) => element !== current)) {
      expect(item).not.toHaveAttribute('aria-current')
      expect(item).not.toHaveClass('font-bold')
    }
  })

  it('replaces the address with the new locale, keeping path, query and hash', () => {
    window.location.hash = '#versions'
    const { router } = renderWithProviders(<LanguagePicker />, {
      router: {
        pathname: '/nodes/[nodeId]',
        query: { nodeId: 'comfy-ab', tab: 'all' },
        asPath: '/nodes/comfy-ab?tab=all',
      },
    })
    fireEvent.click(within(openPicker(/English/)).getByRole('menuitem', { name: 'Français' }))
    expect(router.replace).toHaveBeenCalledWith(
      { pathname: '/nodes/[nodeId]', query: { nodeId: 'comfy-ab', tab: 'all' } },
      '/nodes/comfy-ab?tab=all#versions',
      { locale: 'fr' },
    )
    expect(router.push).not.toHaveBeenCalled()
  })

  it('stores the choice: the NEXT_LOCALE cookie and local storage', () => {
    renderWithProviders(<LanguagePicker />)
    fireEvent.click(within(openPicker(/English/)).getByRole('menuitem', { name: 'Русский' }))
    expect(document.cookie).toContain('NEXT_LOCALE=ru')
    expect(localStorage.getItem('i18nextLng')).toBe('ru')
  })

  it('choosing the current language changes nothing', () => {
    const { router } = renderWithProviders(<LanguagePicker />, { locale: 'ko' })
    fireEvent.click(within(openPicker(/한국어/)).getByRole('menuitem', { name: '한국어' }))
    expect(router.replace).not.toHaveBeenCalled()
    expect(screen.queryByRole('menu')).not.toBeInTheDocument()
  })

  it('is labelled in the page language', () => {
    renderWithProviders(<LanguagePicker />, { locale: 'fr' })
    expect(
      screen.getByRole('button', { name: 'Choisir la langue, actuelle : Français' }),
    ).toBeInTheDocument()
  })
})
