/**
 * Step 2: where exactly. A short how-to for the platform, then its webhook URL (checked as it is pasted with the same
 * rules the server applies, so a Discord URL pasted as Slack is caught here with the same words) — or, for e-mail, the
 * address. Slack and Discord also offer their one-click install when this server has a client id for it.
 * For App Store apps the storefront is chosen here too. The connect button is enabled only when the step is complete.
 */
import { useId, useState, type FormEvent } from 'react';
import { isAppStore, type Platform } from '@/shared/appStores';
import { validateWebhookUrl, WEBHOOK_URL_EXAMPLES, type WebhookPlatform, type WebhookUrlCheck } from '@/shared/webhookUrls';
import EmailField from '@/components/common/EmailField';
import type { PublicConfig } from '@/lib/api/oauth';
import styles from './Connect.module.css';
import CountryPicker from './CountryPicker';
import { PLATFORM_GUIDES } from './platformGuides';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function looksLikeEmail(value: string): boolean {
  return EMAIL.test(value.trim());
}

export type WebhookStepValues = {
  webhook: string;
  /** The visitor's own address (chat platforms, optional) or the destination address (e-mail). */
  email: string;
  /** Storefront code or 'all' (App Store apps). */
  country: string;
};

/** Whether the step is complete, and the URL check to show. */
export function checkStep(platform: Platform, values: WebhookStepValues, allowPrivate: boolean): { complete: boolean; url: WebhookUrlCheck | null } {
  if (platform === 'email') return { complete: looksLikeEmail(values.email), url: null };
  const url = validateWebhookUrl(platform as WebhookPlatform, values.webhook, { allowPrivate });
  const emailOk = values.email.trim() === '' || looksLikeEmail(values.email);
  return { complete: url.ok && emailOk, url };
}

export type WebhookStepProps = {
  platform: Platform;
  appStore: string;
  values: WebhookStepValues;
  onChange: (values: WebhookStepValues) => void;
  config: PublicConfig | undefined;
  busy: boolean;
  onBack: () => void;
  onConnect: () => void;
  onOAuth: (platform: 'slack' | 'discord') => void;
  oauthBusy: boolean;
  headingRef: (el: HTMLHeadingElement | null) => void;
};

export default function WebhookStep({ platform, appStore, values, onChange, config, busy, onBack, onConnect, onOAuth, oauthBusy, headingRef }: WebhookStepProps) {
  const id = useId();
  const guide = PLATFORM_GUIDES[platform];
  const [touched, setTouched] = useState(false);
  const [emailTouched, setEmailTouched] = useState(false);
  const { complete, url } = checkStep(platform, values, config?.allow_private_webhooks ?? false);
  const oauthPlatform = platform === 'slack' && config?.slack_oauth ? 'slack' : platform === 'discord' && config?.discord_oauth ? 'discord' : null;
  const isEmail = platform === 'email';
  const showUrlError = !isEmail && touched && values.webhook.trim() !== '' && url && !url.ok;
  const addressInvalid = values.email.trim() !== '' && !looksLikeEmail(values.email);
  const showEmailError = emailTouched && addressInvalid;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    setEmailTouched(true);
    if (complete && !busy) onConnect();
  };

  return (
    <form onSubmit={submit} noValidate aria-busy={busy}>
      <p className={styles.progress}>Step 2 of 2</p>
      <h3 ref={headingRef} tabIndex={-1} className={styles.stepHeading}>
        {isEmail ? 'Where should we e-mail the reviews?' : `Connect ${guide.name}`}
      </h3>
      <p className={styles.stepLead}>
        {isEmail
          ? 'Reviews arrive one by one as they are written.'
          : platform === 'webhook'
            ? 'Each review is sent to your endpoint as JSON, signed as the Standard Webhooks specification says.'
            : `Reviews will be posted through a ${guide.name} incoming webhook.`}
      </p>

      {oauthPlatform ? (
        <>
          <button type="button" className={styles.oauth} onClick={() => onOAuth(oauthPlatform)} disabled={oauthBusy || busy}>
            {oauthBusy ? `Opening ${guide.name}…` : `Add to ${guide.name}`}
          </button>
          <p className={styles.fieldHint}>Pick the channel on {guide.name}’s page and approve — nothing to copy.</p>
          <p className={styles.divider}>or paste a webhook URL</p>
        </>
      ) : null}

      <ol className={styles.howTo} aria-label={isEmail ? 'How reviews by e-mail work' : `How to create the ${guide.name} webhook`}>
        {guide.steps.map((s) => (
          <li key={s}>{s}</li>
        ))}
        {guide.docs ? (
          <li className={styles.docs}>
            More help: <a href={guide.docs.href} target="_blank" rel="noreferrer noopener">{guide.docs.label}</a>
          </li>
        ) : null}
      </ol>

      {isEmail ? (
        <div className={styles.field}>
          <EmailField
            id={`${id}-address`}
            label={guide.fieldLabel}
            required
            value={values.email}
            invalid={showEmailError}
            message={{
              text: showEmailError ? 'Enter a valid e-mail address, like jane@example.com.' : 'Every e-mail has a one-click unsubscribe link.',
              className: showEmailError ? styles.fieldError : styles.fieldHint,
            }}
            onChange={(email) => onChange({ ...values, email })}
            onBlur={() => setEmailTouched(true)}
          />
        </div>
      ) : (
        <>
          <div className={styles.field}>
            <label htmlFor={`${id}-url`}>{guide.fieldLabel}</label>
            <input
              id={`${id}-url`}
              type="url"
              inputMode="url"
              autoComplete="off"
              spellCheck={false}
              required
              maxLength={2048}
              placeholder={WEBHOOK_URL_EXAMPLES[platform as WebhookPlatform]}
              value={values.webhook}
              aria-invalid={showUrlError || undefined}
              aria-describedby={`${id}-url-msg`}
              onChange={(e) => onChange({ ...values, webhook: e.target.value })}
              onPaste={() => setTouched(true)}
              onBlur={() => setTouched(true)}
            />
            <p id={`${id}-url-msg`} className={showUrlError ? styles.fieldError : styles.fieldHint} aria-live="polite">
              {showUrlError && url && !url.ok ? url.message : `It looks like ${WEBHOOK_URL_EXAMPLES[platform as WebhookPlatform]}`}
            </p>
            {url && url.ok && url.warning ? <p className={styles.fieldWarning}>{url.warning}</p> : null}
          </div>
          <div className={styles.field}>
            <EmailField
              id={`${id}-email`}
              label="Your e-mail (optional)"
              value={values.email}
              invalid={showEmailError}
              message={{
                text: showEmailError ? 'Enter a valid e-mail address, or leave it empty.' : 'To keep the connection in your account, sign up or sign in from this browser.',
                className: showEmailError ? styles.fieldError : styles.fieldHint,
              }}
              onChange={(email) => onChange({ ...values, email })}
              onBlur={() => setEmailTouched(true)}
            />
          </div>
        </>
      )}

      {isAppStore(appStore) && appStore === 'apple_app_store' ? (
        <CountryPicker value={values.country} onChange={(country) => onChange({ ...values, country })} />
      ) : (
        <p className={styles.fieldHint}>Google Play reviews are read in English, from every country.</p>
      )}

      <div className={styles.actions}>
        <button type="submit" className={styles.primary} disabled={!complete || busy}>
          {busy ? 'Connecting…' : isEmail ? 'Send reviews to this address' : `Connect ${guide.name}`}
        </button>
        <button type="button" className={styles.secondary} onClick={onBack} disabled={busy}>
          Back
        </button>
      </div>
    </form>
  );
}
