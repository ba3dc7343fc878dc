/**
 * The /contact form: e-mail and message, sent to POST v1/public/contact. The HTTP client (axios) is loaded only when
 * the visitor submits, so reading the contact page costs no extra JavaScript.
 */
import { useId, useState, type FormEvent } from 'react';
import EmailField from '@/components/common/EmailField';
import styles from './ContactForm.module.css';
import buttons from './buttons.module.css';

export const MESSAGE_MAX_LENGTH = 5000;

type Status = { kind: 'idle' } | { kind: 'sending' } | { kind: 'sent' } | { kind: 'error'; message: string };

export default function ContactForm() {
  const id = useId();
  const [email, setEmail] = useState('');
  const [message, setMessage] = useState('');
  const [status, setStatus] = useState<Status>({ kind: 'idle' });

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setStatus({ kind: 'sending' });
    try {
      const { sendContactMessage } = await import('@/lib/api/contact');
      await sendContactMessage({ email: email.trim(), message: message.trim() });
      setStatus({ kind: 'sent' });
      setMessage('');
    } catch (err) {
      // ApiError carries the server's own message ("Enter a valid e-mail address", rate limits…): show it as is.
      const text = err instanceof Error && err.message ? err.message : 'Your message could not be sent. Please try again.';
      setStatus({ kind: 'error', message: text });
    }
  }

  const sending = status.kind === 'sending';
  return (
    <form className={styles.form} onSubmit={onSubmit} aria-describedby={`${id}-hint`}>
      <p id={`${id}-hint`} className={styles.hint}>
        Both fields are required. We answer from a real inbox, usually within one working day.
      </p>
      <div className={styles.field}>
        <EmailField id={`${id}-email`} name="email" label="Your e-mail" required value={email} onChange={setEmail} />
      </div>
      <div className={styles.field}>
        <label htmlFor={`${id}-message`}>Message</label>
        <textarea
          id={`${id}-message`}
          name="message"
          required
          rows={7}
          maxLength={MESSAGE_MAX_LENGTH}
          value={message}
          onChange={(e) => setMessage(e.target.value)}
        />
      </div>
      <button type="submit" className={`${buttons.primary} ${styles.submit}`} disabled={sending}>
        {sending ? 'Sending…' : 'Send message'}
      </button>
      {/* Both live regions exist from the first render so screen readers announce what appears in them. */}
      <div role="status" className={styles.success}>
        {status.kind === 'sent' ? `Thanks — your message is on its way. We’ll reply to ${email.trim()}.` : null}
      </div>
      <div role="alert" className={styles.error}>
        {status.kind === 'error' ? status.message : null}
      </div>
    </form>
  );
}
