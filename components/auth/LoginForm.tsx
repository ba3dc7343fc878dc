/**
 * Sign-in by e-mail code (docs/PRODUCT.md, Sign-in and the dashboard): e-mail → POST v1/auth/email → the 6-digit code → POST
 * v1/auth/email/confirm → a one-time token → POST v1/auth/token/exchange with the stored attribution → signed in →
 * on to the sanitized redirect_to, else /dashboard (`afterSignIn`).
 */
import { useRouter } from 'next/router';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import EmailField from '@/components/common/EmailField';
import { SIGN_IN_FAILED, useSendSignInCode, useSignInWithCode } from '@/lib/queries/auth';
import { afterSignIn } from '@/lib/redirect';
import { useAuthStore } from '@/stores/auth';
import { useConnectionStore } from '@/stores/connection';
import styles from './AuthForms.module.css';
import Captcha from './Captcha';

export default function LoginForm() {
  const router = useRouter();
  const setAuthData = useAuthStore((s) => s.setAuthData);
  const [step, setStep] = useState<'email' | 'code'>('email');
  // "Create free account" after connecting: the address typed in the connect flow a step earlier (not persisted, never in the URL).
  const [email, setEmail] = useState(() => useConnectionStore.getState().userEmail.trim());
  const [code, setCode] = useState('');
  const codeField = useRef<HTMLInputElement>(null);
  const [captchaToken, setCaptchaToken] = useState('');
  // Captcha tokens are single-use: a new widget (new key) for each request.
  const [captchaRound, setCaptchaRound] = useState(0);
  const [error, setError] = useState('');
  const [notice, setNotice] = useState('');

  const nextCaptcha = () => {
    setCaptchaToken('');
    setCaptchaRound((n) => n + 1);
  };

  const sendCode = useSendSignInCode({
    onMutate: () => {
      setError('');
      setNotice('');
    },
    onSuccess: () => {
      setStep('code');
      setCode('');
      setNotice(`We e-mailed a 6-digit code to ${email.trim()}.`);
    },
    onError: (e) => setError(e.message),
    onSettled: nextCaptcha,
  });

  const signIn = useSignInWithCode({
    onMutate: () => {
      setError('');
      setNotice('');
    },
    onSuccess: async (user) => {
      setAuthData({ authToken: user.authToken, refreshToken: user.refreshToken, email: user.email, name: user.name ?? null, displayName: user.displayName ?? null });
      await router.replace(afterSignIn(router.query.redirect_to));
    },
    onError: (e) => {
      // The confirm call answers wrong or expired codes with a message meant for the user: show it as is.
      setError(e.message || SIGN_IN_FAILED);
      nextCaptcha();
    },
  });

  // After "Send code" the code field has the focus: the next thing to type is the code.
  useEffect(() => {
    if (step === 'code') codeField.current?.focus();
  }, [step]);

  const onSendCode = (event: FormEvent) => {
    event.preventDefault();
    if (!sendCode.isPending) sendCode.mutate({ email: email.trim(), captchaToken });
  };
  const onSignIn = (event: FormEvent) => {
    event.preventDefault();
    if (!signIn.isPending) signIn.mutate({ email: email.trim(), code: code.replace(/\s+/g, ''), captchaToken });
  };

  return (
    <div className={styles.card}>
      <h1 className={styles.heading}>Sign in to ARB</h1>
      {step === 'email' ? (
        <form onSubmit={onSendCode} className={styles.form}>
          <p className={styles.lead}>Enter your work e-mail. We will send you a 6-digit code — no password needed.</p>
          <EmailField
            id="login-email"
            name="email"
            label="Email address"
            labelClassName={styles.label}
            inputClassName={styles.input}
            required
            value={email}
            onChange={setEmail}
            invalid={Boolean(error)}
            describedBy={error ? 'login-error' : undefined}
          />
          <Captcha key={captchaRound} onToken={setCaptchaToken} />
          <button type="submit" className={styles.primary} disabled={sendCode.isPending} aria-busy={sendCode.isPending}>
            {sendCode.isPending ? 'Sending code…' : 'Send code'}
          </button>
        </form>
      ) : (
        <form onSubmit={onSignIn} className={styles.form}>
          <label htmlFor="login-code" className={styles.label}>
            Sign-in code
          </label>
          <input
            ref={codeField}
            id="login-code"
            name="code"
            type="text"
            autoComplete="one-time-code"
            inputMode="numeric"
            pattern="[0-9 ]{6,7}"
            maxLength={7}
            required
            className={`${styles.input} ${styles.code}`}
            value={code}
            onChange={(e) => setCode(e.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'login-error' : 'login-code-hint'}
          />
          <p id="login-code-hint" className={styles.hint}>
            The code is in the e-mail we just sent to {email.trim()}. It works once and expires soon.
          </p>
          <Captcha key={captchaRound} onToken={setCaptchaToken} />
          <button type="submit" className={styles.primary} disabled={signIn.isPending} aria-busy={signIn.isPending}>
            {signIn.isPending ? 'Signing in…' : 'Sign in'}
          </button>
          <div className={styles.secondaryRow}>
            <button type="button" className={styles.link} disabled={sendCode.isPending} onClick={() => sendCode.mutate({ email: email.trim(), captchaToken })}>
              Send a new code
            </button>
            <button
              type="button"
              className={styles.link}
              onClick={() => {
                setStep('email');
                setError('');
                setNotice('');
              }}
            >
              Use a different e-mail
            </button>
          </div>
        </form>
      )}
      <div role="status" aria-live="polite" className={styles.notice}>
        {notice}
      </div>
      {error ? (
        <p id="login-error" role="alert" className={styles.error}>
          {error}
        </p>
      ) : null}
    </div>
  );
}
