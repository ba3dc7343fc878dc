/**
 * hCaptcha for the e-mail sign-in calls. The widget is fetched only when NEXT_PUBLIC_HCAPTCHA_SITEKEY is set; with no
 * key, or when the widget cannot load (offline, blocked), the form still works and sends an empty token — the server
 * decides whether a captcha is required and says so.
 */
import dynamic from 'next/dynamic';

const HCaptcha = dynamic(() => import('@hcaptcha/react-hcaptcha'), { ssr: false, loading: () => null });

const CAPTCHA_SITEKEY = process.env.NEXT_PUBLIC_HCAPTCHA_SITEKEY || '';

export default function Captcha({ onToken }: { onToken: (token: string) => void }) {
  if (!CAPTCHA_SITEKEY) return null;
  return (
    <HCaptcha
      sitekey={CAPTCHA_SITEKEY}
      onVerify={(token) => onToken(token)}
      onExpire={() => onToken('')}
      onChalExpired={() => onToken('')}
      onError={() => onToken('')}
    />
  );
}
