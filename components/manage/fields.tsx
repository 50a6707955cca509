// Labelled form fields: the hint and the error message are tied to the control with
// aria-describedby, and an error marks it aria-invalid.
import { Button, Label, Select, Textarea, TextInput } from 'flowbite-react'
import { useTranslation } from 'next-i18next/pages'
import { useId, type ComponentProps, type ReactNode } from 'react'
import { apiErrorMessage } from '@/src/lib/api-error'
import { DESCRIPTION_MAX_LENGTH } from './limits'

interface FieldFrameProps {
  id: string
  label: string
  hint?: ReactNode
  error?: string
  /** Shown after the label, e.g. "(optional)". */
  optional?: boolean
  children: ReactNode
}

/** What every control gets: its id, the error colour and state, and its hint and error ids. */
function controlProps(id: string, hint: unknown, error: unknown) {
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean)
  return {
    id,
    color: error ? 'failure' : 'gray',
    'aria-invalid': error ? true : undefined,
    'aria-describedby': described.length ? described.join(' ') : undefined,
  }
}

function FieldFrame({ id, label, hint, error, optional, children }: FieldFrameProps) {
  const { t } = useTranslation('common')
  return (
    <div>
      <div className="mb-1 block">
        <Label htmlFor={id}>
          {label}
          {optional && (
            <span className="ml-1 font-normal text-gray-600 dark:text-gray-400">
              ({t('manage.form.optional')})
            </span>
          )}
        </Label>
      </div>
      {children}
      {hint && (
        <p id={`${id}-hint`} className="mt-1 text-sm text-gray-600 dark:text-gray-400">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="mt-1 text-sm font-medium text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
    </div>
  )
}

type Common = Omit<FieldFrameProps, 'id' | 'children'> & { id?: string }

export type TextFieldProps = Common & Omit<ComponentProps<typeof TextInput>, 'id' | 'color'>

export function TextField({ id, label, hint, error, optional, ...input }: TextFieldProps) {
  const generated = useId()
  const fieldId = id ?? generated
  return (
    <FieldFrame id={fieldId} label={label} hint={hint} error={error} optional={optional}>
      <TextInput {...controlProps(fieldId, hint, error)} {...input} />
    </FieldFrame>
  )
}

export type TextAreaFieldProps = Common & Omit<ComponentProps<typeof Textarea>, 'id' | 'color'>

export function TextAreaField({ id, label, hint, error, optional, ...input }: TextAreaFieldProps) {
  const generated = useId()
  const fieldId = id ?? generated
  return (
    <FieldFrame id={fieldId} label={label} hint={hint} error={error} optional={optional}>
      <Textarea rows={4} {...controlProps(fieldId, hint, error)} {...input} />
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

export function SelectField({ id, label, hint, error, optional, ...input }: SelectFieldProps) {
  const generated = useId()
  const fieldId = id ?? generated
  return (
    <FieldFrame id={fieldId} label={label} hint={hint} error={error} optional={optional}>
      <Select {...controlProps(fieldId, hint, error)} {...input} />
    </FieldFrame>
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
