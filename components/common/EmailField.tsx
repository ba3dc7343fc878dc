/**
 * Every e-mail input of the site and the dashboard: its label, the input with the same attributes everywhere (the
 * e-mail keyboard, at most 254 characters: the longest address SMTP carries) and, when given, the line under it that
 * is a hint or, while `invalid`, the error (announced through aria-describedby). Renders no wrapper: the form keeps
 * its own layout around it.
 */
import type { ReactNode } from 'react';

export const EMAIL_MAX_LENGTH = 254;

export type EmailFieldProps = {
  /** The input's id; the line under it gets `${id}-msg`. */
  id: string;
  label: ReactNode;
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  required?: boolean;
  name?: string;
  placeholder?: string;
  /** 'off' where the address is someone else's (an invitation). */
  autoComplete?: 'email' | 'off';
  invalid?: boolean;
  /** The line under the input, with its class (hint or error look). */
  message?: { text: ReactNode; className: string };
  /** Another element that describes the input (used when there is no `message`). */
  describedBy?: string;
  labelClassName?: string;
  inputClassName?: string;
};

export default function EmailField({
  id,
  label,
  value,
  onChange,
  onBlur,
  required = false,
  name,
  placeholder,
  autoComplete = 'email',
  invalid = false,
  message,
  describedBy,
  labelClassName,
  inputClassName,
}: EmailFieldProps) {
  const messageId = `${id}-msg`;
  return (
    <>
      <label htmlFor={id} className={labelClassName}>
        {label}
      </label>
      <input
        id={id}
        name={name}
        type="email"
        inputMode="email"
        autoComplete={autoComplete}
        required={required}
        maxLength={EMAIL_MAX_LENGTH}
        className={inputClassName}
        placeholder={placeholder}
        value={value}
        aria-invalid={invalid || undefined}
        aria-describedby={message ? messageId : describedBy}
        onChange={(e) => onChange(e.target.value)}
        onBlur={onBlur}
      />
      {message ? (
        <p id={messageId} className={message.className}>
          {message.text}
        </p>
      ) : null}
    </>
  );
}
