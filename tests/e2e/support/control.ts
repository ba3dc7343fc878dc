/**
 * The tests' side of the fakes' control API (served by outsideWorld.ts in the Playwright runner process, reached over
 * loopback HTTP because the tests run in worker processes). Every read that waits for something long-polls on the
 * control server, which wakes up when the fake receives it: no sleeps, no polling loops in tests.
 */
/** The fake stores answer searches containing this word 3 s late (see outsideWorld.ts). */
export const SLOW_SEARCH_TERM = 'slowpoke';

export type Mail = { to: string[]; from: string; subject: string; text: string; html: string };

export type SeenRequest = { method: string; path: string; query: Record<string, string>; body: string };

export class ControlClient {
  constructor(private readonly url: string) {}

  private async get<T>(path: string, params: Record<string, string | number>): Promise<T> {
    const qs = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]));
    const res = await fetch(`${this.url}${path}?${qs}`);
    const body = (await res.json()) as T & { error?: string };
    if (!res.ok) throw new Error(`control ${path}: ${body.error ?? res.status}`);
    return body;
  }

  /** Resolves with all messages to `to` once there are at least `count` of them. */
  async waitForMail(to: string, { count = 1, timeoutMs = 15_000 } = {}): Promise<Mail[]> {
    return (await this.get<{ messages: Mail[] }>('/__control/mail', { to, count, timeout: timeoutMs })).messages;
  }

  /** The 6-digit code of the `nth` sign-in e-mail sent to `to` (1 = the first). */
  async signInCode(to: string, nth = 1): Promise<string> {
    const mail = (await this.waitForMail(to, { count: nth }))[nth - 1];
    const code = /\b(\d{6})\b/.exec(`${mail.subject}\n${mail.text}`)?.[1];
    if (!code) throw new Error(`no 6-digit code in the e-mail to ${to}: ${mail.subject}\n${mail.text}`);
    return code;
  }

  /** What a fake host ('itunes', 'play', 'hcaptcha', …) received, oldest first; waits for at least `count`. */
  async requests(fake: string, { path = '', count = 0, timeoutMs = 15_000 } = {}): Promise<SeenRequest[]> {
    return (await this.get<{ requests: SeenRequest[] }>('/__control/requests', { fake, path, count, timeout: timeoutMs })).requests;
  }
}
