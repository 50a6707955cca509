// Labelled form fields, the one place that decides how a field looks and announces itself: the
// hint and the error message are tied to the control with aria-describedby, and an error marks it
// aria-invalid. Text, text area and select fields share FieldFrame (label above the control);
// groups of checkboxes or radios share GroupFrame (a fieldset whose legend names the group).
import { Button, Checkbox, Label, Radio, Select, Textarea, TextInput } from 'flowbite-react'
import { useTranslation } from 'next-i18next/pages'
import { useId, type ComponentProps, type ReactNode } from 'react'
import { apiErrorMessage } from '@/src/lib/api-error'
import { DESCRIPTION_MAX_LENGTH } from './limits'

const HINT_CLASS = 'text-sm text-gray-600 dark:text-gray-400'
const ERROR_CLASS = 'mt-1 text-sm font-medium text-red-700 dark:text-red-400'

/** The ids a control (or group) is described by: its hint, then its error. */
function describedBy(id: string, hint: unknown, error: unknown): string | undefined {
  const ids = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean)
  return ids.length ? ids.join(' ') : undefined
}

/** The hint and the error under a control or group, with the ids describedBy points at. */
function HintAndError({ id, hint, error }: { id: string; hint?: ReactNode; error?: string }) {
  return (
    <>
      {hint && (
        <p id={`${id}-hint`} className={`mt-1 ${HINT_CLASS}`}>
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className={ERROR_CLASS}>
          {error}
        </p>
      )}
    </>
  )
}

/** "(optional)" after a label or legend. */
function OptionalMark({ optional }: { optional?: boolean }) {
  const { t } = useTranslation('common')
  if (!optional) return null
  return (
    <span className="ml-1 font-normal text-gray-600 dark:text-gray-400">
      ({t('manage.form.optional')})
    </span>
  )
}

interface FieldFrameProps {
  id: string
  label: string
  hint?: ReactNode
  error?: string
  /** Shown after the label, e.g. "(optional)". */
  optional?: boolean
  /** Classes of the field's outer box (e.g. its share of a row). */
  className?: string
  children: ReactNode
}

/** What every control gets: its id, the error colour and state, and its hint and error ids. */
function controlProps(id: string, hint: unknown, error: unknown) {
  return {
    id,
    color: error ? 'failure' : 'gray',
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy(id, hint, error),
  }
}

function FieldFrame({ id, label, hint, error, optional, className, children }: FieldFrameProps) {
  return (
    <div className={className}>
      <div className="mb-1 block">
        <Label htmlFor={id}>
          {label}
          <OptionalMark optional={optional} />
        </Label>
      </div>
      {children}
      <HintAndError id={id} hint={hint} error={error} />
    </div>
  )
}

type Common = Omit<FieldFrameProps, 'id' | 'children'> & { id?: string }

export type TextFieldProps = Common & Omit<ComponentProps<typeof TextInput>, 'id' | 'color'>

/** A field's frame props and its control's props (the caller's own after the shared ones). */
function useFieldParts<P extends Common>({
  id,
  label,
  hint,
  error,
  optional,
  className,
  ...input
}: P) {
  const generated = useId()
  const fieldId = id ?? generated
  return {
    frame: { id: fieldId, label, hint, error, optional, className },
    control: { ...controlProps(fieldId, hint, error), ...input },
  }
}

export function TextField(props: TextFieldProps) {
  const { frame, control } = useFieldParts(props)
  return (
    <FieldFrame {...frame}>
      <TextInput {...control} />
    </FieldFrame>
  )
}

export type TextAreaFieldProps = Common & Omit<ComponentProps<typeof Textarea>, 'id' | 'color'>

export function TextAreaField(props: TextAreaFieldProps) {
  const { frame, control } = useFieldParts(props)
  return (
    <FieldFrame {...frame}>
      <Textarea rows={4} {...control} />
    </FieldFrame>
  )
}

/** The optional description of a node or publisher, with its length against the contract's limit. */
export function DescriptionField({
  value,
  ...field
}: Omit<TextAreaFieldProps, 'label' | 'optional' | 'hint'> & { value: string }) {
  const { t } = useTranslation('common')
  return (
    <TextAreaField
      label={t('manage.fields.description')}
      value={value}
      optional
      hint={t('manage.form.charCount', { length: value.length, max: DESCRIPTION_MAX_LENGTH })}
      {...field}
    />
  )
}

export type SelectFieldProps = Common & Omit<ComponentProps<typeof Select>, 'id' | 'color'>

export function SelectField(props: SelectFieldProps) {
  const { frame, control } = useFieldParts(props)
  return (
    <FieldFrame {...frame}>
      <Select {...control} />
    </FieldFrame>
  )
}

export type CheckboxFieldProps = Omit<ComponentProps<typeof Checkbox>, 'id' | 'type'> & {
  id?: string
  label: string
  hint?: ReactNode
}

/** One checkbox with its label beside it (and a hint under both, tied to it). */
export function CheckboxField({ id, label, hint, className, ...input }: CheckboxFieldProps) {
  const generated = useId()
  const fieldId = id ?? generated
  return (
    <div className={className}>
      <div className="flex items-center gap-2">
        <Checkbox
          id={fieldId}
          aria-describedby={describedBy(fieldId, hint, undefined)}
          {...input}
        />
        <Label htmlFor={fieldId} className="font-normal">
          {label}
        </Label>
      </div>
      <HintAndError id={fieldId} hint={hint} />
    </div>
  )
}

interface GroupFrameProps {
  id: string
  legend: string
  hint?: ReactNode
  error?: string
  optional?: boolean
  /** `radiogroup` for radios: a group that may be marked aria-invalid. */
  role?: 'radiogroup'
  children: ReactNode
}

function GroupFrame({ id, legend, hint, error, optional, role, children }: GroupFrameProps) {
  return (
    <fieldset
      role={role}
      aria-describedby={describedBy(id, hint, error)}
      aria-invalid={role && error ? true : undefined}
    >
      <legend className="mb-2 text-sm font-medium text-gray-900 dark:text-white">
        {legend}
        <OptionalMark optional={optional} />
      </legend>
      {children}
      <HintAndError id={id} hint={hint} error={error} />
    </fieldset>
  )
}

export interface ChoiceOption<T extends string> {
  value: T
  label: string
  /** Said of this option only, under its label and tied to its control. */
  hint?: ReactNode
}

interface GroupCommon<T extends string> {
  legend: string
  options: readonly ChoiceOption<T>[]
  hint?: ReactNode
  error?: string
  optional?: boolean
}

/** A choice's label, and its own hint. */
function ChoiceLabel({ id, label, hint }: { id: string; label: string; hint?: ReactNode }) {
  return (
    <div>
      <Label htmlFor={id} className={hint ? undefined : 'font-normal'}>
        {label}
      </Label>
      {hint && (
        <p id={`${id}-hint`} className={HINT_CLASS}>
          {hint}
        </p>
      )}
    </div>
  )
}

export interface CheckboxGroupFieldProps<T extends string> extends GroupCommon<T> {
  selected: readonly T[]
  onChange: (selected: T[]) => void
}

/** Several checkboxes under one legend; `selected` keeps the order they were chosen in. */
export function CheckboxGroupField<T extends string>({
  legend,
  options,
  hint,
  error,
  optional,
  selected,
  onChange,
}: CheckboxGroupFieldProps<T>) {
  const id = useId()
  return (
    <GroupFrame id={id} legend={legend} hint={hint} error={error} optional={optional}>
      <div className="flex flex-wrap gap-x-5 gap-y-2">
        {options.map((option) => {
          const optionId = `${id}-${option.value}`
          return (
            <div key={option.value} className="flex items-start gap-2">
              <Checkbox
                id={optionId}
                checked={selected.includes(option.value)}
                aria-invalid={error ? true : undefined}
                aria-describedby={option.hint ? `${optionId}-hint` : undefined}
                className="mt-0.5"
                onChange={(event) =>
                  onChange(
                    event.target.checked
                      ? [...selected, option.value]
                      : selected.filter((value) => value !== option.value),
                  )
                }
              />
              <ChoiceLabel id={optionId} label={option.label} hint={option.hint} />
            </div>
          )
        })}
      </div>
    </GroupFrame>
  )
}

export interface RadioGroupFieldProps<T extends string> extends GroupCommon<T> {
  value: T
  onChange: (value: T) => void
}

/** One choice of several, as radios under one legend (each option may have its own hint). */
export function RadioGroupField<T extends string>({
  legend,
  options,
  hint,
  error,
  optional,
  value,
  onChange,
}: RadioGroupFieldProps<T>) {
  const id = useId()
  return (
    <GroupFrame
      id={id}
      legend={legend}
      hint={hint}
      error={error}
      optional={optional}
      role="radiogroup"
    >
      <div className="space-y-2">
        {options.map((option) => {
          const optionId = `${id}-${option.value}`
          return (
            <div key={option.value} className="flex items-start gap-2">
              <Radio
                id={optionId}
                name={`${id}-choice`}
                value={option.value}
                checked={value === option.value}
                onChange={() => onChange(option.value)}
                aria-describedby={option.hint ? `${optionId}-hint` : undefined}
                className="mt-0.5"
              />
              <ChoiceLabel id={optionId} label={option.label} hint={option.hint} />
            </div>
          )
        })}
      </div>
    </GroupFrame>
  )
}

/** A form-level message: an error (role="alert") or a success (role="status"). */
export function FormMessage({
  kind,
  children,
}: {
  kind: 'error' | 'success'
  children: ReactNode
}) {
  return kind === 'error' ? (
    <p
      role="alert"
      className="rounded-lg border border-red-300 bg-red-50 p-3 text-sm text-red-900 dark:border-red-700 dark:bg-red-950 dark:text-red-100"
    >
      {children}
    </p>
  ) : (
    <p
      role="status"
      className="rounded-lg border border-green-300 bg-green-50 p-3 text-sm text-green-900 dark:border-green-700 dark:bg-green-950 dark:text-green-100"
    >
      {children}
    </p>
  )
}

export interface LoadErrorProps {
  /** What could not be loaded. */
  message: string
  /** The API's answer, appended as a message. */
  error: unknown
  onRetry: () => void
  /** The block's classes (its spacing). */
  className?: string
  size?: 'sm' | 'md'
}

/** A failed load: what failed and why, and a button to try again. */
export function LoadError({
  message,
  error,
  onRetry,
  className = 'space-y-3',
  size = 'md',
}: LoadErrorProps) {
  const { t } = useTranslation('common')
  return (
    <div className={className}>
      <FormMessage kind="error">
        {message} {apiErrorMessage(error, t)}
      </FormMessage>
      <Button color="light" size={size} onClick={onRetry}>
        {t('manage.retry')}
      </Button>
    </div>
  )
}
