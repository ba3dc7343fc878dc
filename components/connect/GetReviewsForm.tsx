/**
 * Reviews by e-mail on /get-reviews: pick the app with the home page's search, give an address, and ARB e-mails its
 * recent reviews (POST v1/public/reviews), optionally with a summary (POST v1/public/send-summary). The e-mail offers
 * the daily digest. An address that unsubscribed earlier first gets a confirmation link, and the form says so.
 */
import { useId, useState, type FormEvent } from 'react';
import EmailField from '@/components/common/EmailField';
import AppSearch from '@/components/search/AppSearch';
import SelectedAppCard from '@/components/search/SelectedAppCard';
import { useAuthStore } from '@/stores/auth';
import { useConnectionStore } from '@/stores/connection';
import styles from './Connect.module.css';
import CountryPicker from './CountryPicker';
import { looksLikeEmail } from './WebhookStep';

type Phase = { kind: 'idle' } | { kind: 'sending' } | { kind: 'sent'; text: string } | { kind: 'error'; text: string };

export default function GetReviewsForm() {
  const id = useId();
  const app = useConnectionStore((s) => s.selectedAppDetails);
  const country = useConnectionStore((s) => s.selectedCountryCode);
  const setCountry = useConnectionStore((s) => s.setSelectedCountryCode);
  const storedEmail = useConnectionStore((s) => s.userEmail);
  const setStoredEmail = useConnectionStore((s) => s.setUserEmail);
  const authEmail = useAuthStore((s) => s.authData.email);
  const email = storedEmail || '';
  const [summary, setSummary] = useState(false);
  const [weekly, setWeekly] = useState(false);
  const [touched, setTouched] = useState(false);
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const emailOk = looksLikeEmail(email);
  const complete = Boolean(app) && emailOk;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!complete || !app || phase.kind === 'sending') return;
    setPhase({ kind: 'sending' });
    try {
      const { requestReviewsByEmail, requestSummaryByEmail } = await import('@/lib/api/publicReviews');
      const address = email.trim();
      const request = { email: address, app_id: app.id, app_store: app.store };
      const result = (await requestReviewsByEmail({ ...request, ...(app.store === 'apple_app_store' ? { country } : {}), ...(weekly ? { weekly_summary: true } : {}) })) as {
        queued: boolean;
        confirmation_required?: boolean;
      };
      if (summary) await requestSummaryByEmail(request);
      setPhase({
        kind: 'sent',
        text: result.confirmation_required
          ? `${address} unsubscribed from ARB e-mails before, so we sent a confirmation link first. Click it in the e-mail and the reviews of ${app.title} follow.`
          : `Check your inbox: the recent reviews of ${app.title}${summary ? ' and a summary' : ''} are on their way to ${address}.${weekly ? ' Click the button in that e-mail to start the weekly summary.' : ''}`,
      });
    } catch (err) {
      setPhase({ kind: 'error', text: err instanceof Error && err.message ? err.message : 'The request could not be sent. Please try again.' });
    }
  };

  return (
    <form className={styles.form} onSubmit={(e) => void submit(e)} noValidate aria-describedby={`${id}-hint`}>
      <p id={`${id}-hint`} className={styles.fieldHint}>
        Find your app, then tell us where to send its reviews.
      </p>
      <AppSearch />
      <SelectedAppCard />
      <div className={styles.field}>
        <EmailField
          id={`${id}-email`}
          label="Your e-mail"
          required
          placeholder={authEmail || 'you@example.com'}
          value={email}
          invalid={touched && !emailOk}
          message={{
            text: touched && !emailOk ? 'Enter a valid e-mail address, like jane@example.com.' : 'We only use it to send the reviews you ask for.',
            className: touched && !emailOk ? styles.fieldError : styles.fieldHint,
          }}
          onChange={setStoredEmail}
          onBlur={() => email && setTouched(true)}
        />
      </div>
      {app?.store === 'apple_app_store' ? <CountryPicker value={country} onChange={setCountry} allowAll={false} label="App Store country" /> : null}
      <label className={styles.checkbox}>
        <input type="checkbox" checked={summary} onChange={(e) => setSummary(e.target.checked)} />
        <span>Also send me a summary: ratings, the most mentioned topics and the latest negative reviews.</span>
      </label>
      <label className={styles.checkbox}>
        <input type="checkbox" checked={weekly} onChange={(e) => setWeekly(e.target.checked)} />
        <span>And a weekly summary every Monday: themes, what changed and representative reviews. You confirm it with one click in the e-mail.</span>
      </label>
      <div className={styles.actions}>
        <button type="submit" className={styles.primary} disabled={!complete || phase.kind === 'sending'}>
          {phase.kind === 'sending' ? 'Sending…' : 'Send me the reviews'}
        </button>
        {!app ? <span className={styles.fieldHint}>Pick your app first.</span> : null}
      </div>
      <p role="status" className={styles.live}>
        {phase.kind === 'sent' ? phase.text : null}
      </p>
      <p role="alert" className={styles.alert}>
        {phase.kind === 'error' ? phase.text : null}
      </p>
    </form>
  );
}
