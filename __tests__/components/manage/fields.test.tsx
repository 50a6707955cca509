// The shared field components announce what they say: the label names the control, the hint and
// the error describe it (aria-describedby), and an error marks it (or its group) invalid.
import { fireEvent, screen, within } from '@testing-library/react'
import { useState } from 'react'
import {
  CheckboxField,
  CheckboxGroupField,
  RadioGroupField,
  SelectField,
  TextAreaField,
  TextField,
} from '@/components/manage/fields'
import { renderWithProviders } from '../../test-utils'

/** The texts of the elements an element's aria-describedby points at, in order. */
function describedTexts(element: HTMLElement): string[] {
  return (element.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .filter(Boolean)
    .map((id) => document.getElementById(id)?.textContent ?? `(missing #${id})`)
}

describe('TextField, TextAreaField and SelectField', () => {
  it('tie the hint to the control, and announce an error with aria-invalid', () => {
    const { rerender } = renderWithProviders(
      <TextField label="Name" hint="Shown on the node page." value="" onChange={() => {}} />,
    )
    const input = screen.getByRole('textbox', { name: 'Name' })
    expect(input).not.toHaveAttribute('aria-invalid')
    expect(describedTexts(input)).toEqual(['Shown on the node page.'])
    expect(input).toHaveAccessibleDescription('Shown on the node page.')

    rerender(
      <TextField
        label="Name"
        hint="Shown on the node page."
        error="Enter a name."
        value=""
        onChange={() => {}}
      />,
    )
    expect(input).toHaveAttribute('aria-invalid', 'true')
    expect(describedTexts(input)).toEqual(['Shown on the node page.', 'Enter a name.'])
    expect(input).toHaveAccessibleDescription('Shown on the node page. Enter a name.')
  })

  it('describe a control without a hint by its error alone, and mark optional fields', () => {
    renderWithProviders(
      <>
        <TextAreaField label="Reason" optional error="Too long." value="" onChange={() => {}} />
        <SelectField label="Type" error="Choose a type." value="a" onChange={() => {}}>
          <option value="a">A</option>
        </SelectField>
      </>,
    )
    const reason = screen.getByRole('textbox', { name: 'Reason (optional)' })
    expect(reason).toHaveAttribute('aria-invalid', 'true')
    expect(describedTexts(reason)).toEqual(['Too long.'])
    const type = screen.getByRole('combobox', { name: 'Type' })
    expect(type).toHaveAttribute('aria-invalid', 'true')
    expect(type).toHaveAccessibleDescription('Choose a type.')
  })
})

describe('choice fields', () => {
  function Radios({ error }: { error?: string }) {
    const [value, setValue] = useState<'approve' | 'ban'>('approve')
    return (
      <RadioGroupField
        legend="Decision"
        hint="Applies to every version shown."
        error={error}
        options={[
          { value: 'approve', label: 'Approve', hint: 'The version becomes installable.' },
          { value: 'ban', label: 'Ban', hint: 'Nobody can install it.' },
        ]}
        value={value}
        onChange={setValue}
      />
    )
  }

  it('names a radio group by its legend, describes each radio by its own hint, and chooses', () => {
    const { rerender } = renderWithProviders(<Radios />)
    const group = screen.getByRole('radiogroup', { name: 'Decision' })
    expect(group).toHaveAccessibleDescription('Applies to every version shown.')
    expect(group).not.toHaveAttribute('aria-invalid')
    const ban = within(group).getByRole('radio', { name: 'Ban' })
    expect(ban).toHaveAccessibleDescription('Nobody can install it.')
    expect(within(group).getByRole('radio', { name: 'Approve' })).toBeChecked()
    fireEvent.click(ban)
    expect(ban).toBeChecked()
    expect(within(group).getByRole('radio', { name: 'Approve' })).not.toBeChecked()

    rerender(<Radios error="Choose a decision." />)
    expect(group).toHaveAttribute('aria-invalid', 'true')
    expect(describedTexts(group)).toEqual(['Applies to every version shown.', 'Choose a decision.'])
  })

  it('keeps a checkbox group’s choices, and ties a single checkbox’s hint to it', () => {
    const changes: string[][] = []
    function Boxes() {
      const [selected, setSelected] = useState<string[]>(['linux'])
      return (
        <CheckboxGroupField
          legend="Operating systems"
          error="Choose at most two."
          options={[
            { value: 'linux', label: 'Linux' },
            { value: 'macos', label: 'macOS' },
          ]}
          selected={selected}
          onChange={(next) => {
            changes.push(next)
            setSelected(next)
          }}
        />
      )
    }
    renderWithProviders(
      <>
        <Boxes />
        <CheckboxField label="Banned only" hint="Hides the others." />
      </>,
    )
    const group = screen.getByRole('group', { name: 'Operating systems' })
    expect(group).toHaveAccessibleDescription('Choose at most two.')
    const macos = within(group).getByRole('checkbox', { name: 'macOS' })
    expect(macos).toHaveAttribute('aria-invalid', 'true')
    fireEvent.click(macos)
    fireEvent.click(within(group).getByRole('checkbox', { name: 'Linux' }))
    expect(changes).toEqual([['linux', 'macos'], ['macos']])

    expect(screen.getByRole('checkbox', { name: 'Banned only' })).toHaveAccessibleDescription(
      'Hides the others.',
    )
  })
})
