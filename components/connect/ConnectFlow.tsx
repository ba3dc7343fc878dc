/**
 * The connect flow under the selected app on / and /try-free driven by the flow's store (docs/PRODUCT.md, Browser state):
 *   connectionState  idle → choosing_platform → entering_webhook → connecting → connected | error
 * Step 1 picks the platform (Slack by default), step 2 takes the webhook (or address) and, for App Store apps, the
 * storefront; the browser then builds the v2 connection payload (shared/connectionPayload) and calls
 * POST v1/oauth/platform/connect. Slack and Discord can instead be installed through their OAuth page.
 * Loaded only once an app is picked (see LazyConnectFlow), with its own React Query client.
 *
 * The dashboard's "Add destination" uses the same flow `forOrganisation`: the call carries the session, so the
 * connection is the organisation's at once (an admin's own address needs no confirmation e-mail). "Add to Slack" and
 * "Add to Discord" there start with the session too: the signed state names the person, and the return page finishes
 * the install in their session, for their organisation.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import toast from '@/lib/hotToast';
import QueryProvider from '@/components/common/QueryProvider';
import { ORG_PLATFORMS, PLATFORMS, type Platform } from '@/shared/appStores';
import { buildConnectionPayload, connectionRequest, encodeConnectionPayload } from '@/shared/connectionPayload';
import { ALL_COUNTRIES } from '@/shared/storefronts';
import { useConnectMutation, usePublicConfigQuery, useStartOAuthMutation } from '@/lib/queries/connect';
import { useAuthStore } from '@/stores/auth';
import { useConnectionStore } from '@/stores/connection';
import styles from './Connect.module.css';
import ConnectionStatus from './ConnectionStatus';
import PlatformPicker from './PlatformPicker';
import { PLATFORM_GUIDES } from './platformGuides';
import WebhookStep, { checkStep, type WebhookStepValues } from './WebhookStep';

function errorMessage(err: unknown): string {
  return err instanceof Error && err.message ? err.message : 'Something went wrong. Please try again.';
}

type FlowProps = {
  /** Connect with the signed-in session, for the caller's organisation (the dashboard). */
  forOrganisation?: boolean;
  /** After a connection was made (the dashboard refreshes its list; a new Webhook's secret comes with it, once). */
  onConnected?: (destinationId: string, extra: { signingSecret: string | null }) => void;
};

function Flow({ forOrganisation = false, onConnected }: FlowProps) {
  const app = useConnectionStore((s) => s.selectedAppDetails);
  const countryCode = useConnectionStore((s) => s.selectedCountryCode);
  const state = useConnectionStore((s) => s.connectionState);
  const platform = useConnectionStore((s) => s.selectedPlatform);
  const webhook = useConnectionStore((s) => s.webhooks[s.selectedPlatform] ?? '');
  const userEmail = useConnectionStore((s) => s.userEmail);
  const allCountries = useConnectionStore((s) => s.allCountries);
  const destinationId = useConnectionStore((s) => s.destinationId);
  const connectionError = useConnectionStore((s) => s.connectionError);
  const source = useConnectionStore((s) => s.connectionSource);
  const authEmail = useAuthStore((s) => s.authData.email);
  const config = usePublicConfigQuery();
  const connectMutation = useConnectMutation({ signedIn: forOrganisation });
  const startOAuthMutation = useStartOAuthMutation({ signedIn: forOrganisation });
  const [oauthBusy, setOauthBusy] = useState(false);
  const [confirmationMessage, setConfirmationMessage] = useState<string | null>(null);
  const containerRef = useRef<HTMLDivElement>(null);
  const stepHeading = useRef<HTMLHeadingElement | null>(null);
  const focusNext = useRef<'step2' | 'platform' | null>(null);

  const values: WebhookStepValues = { webhook, email: userEmail, country: allCountries ? ALL_COUNTRIES : countryCode };
  const appKey = app ? `${app.store}:${app.id}` : null;

  // A newly picked app starts the flow; picking another app starts it over (the connection was for the old one).
  const connectedFor = useRef(appKey);
  useEffect(() => {
    const c = useConnectionStore.getState();
    if (!appKey) return;
    if (connectedFor.current !== appKey) {
      connectedFor.current = appKey;
      c.setDestinationId(null);
      c.setConnectionError(null);
      c.setConnectionState('choosing_platform');
    } else if (c.connectionState === 'idle') {
      c.setConnectionState('choosing_platform');
    }
  }, [appKey]);

  // Continue is enabled when the current step is complete (the spec's continueButtonEnabled, computed here, not stored).
  const continueEnabled =
    state === 'choosing_platform' ? true : state === 'entering_webhook' || state === 'error' ? checkStep(platform, values, config.data?.allow_private_webhooks ?? false).complete : false;

  useEffect(() => {
    if (focusNext.current === 'step2' && (state === 'entering_webhook' || state === 'error')) stepHeading.current?.focus();
    if (focusNext.current === 'platform' && state === 'choosing_platform') containerRef.current?.querySelector<HTMLInputElement>('input[type="radio"]:checked')?.focus();
    focusNext.current = null;
  }, [state]);

  const choosePlatform = (p: Platform) => useConnectionStore.getState().setSelectedPlatform(p);

  const changeValues = (next: WebhookStepValues) => {
    const c = useConnectionStore.getState();
    if (next.webhook !== webhook) c.setWebhook(platform, next.webhook);
    if (next.email !== userEmail) c.setUserEmail(next.email);
    if (next.country === ALL_COUNTRIES) c.setAllCountries(true);
    else {
      c.setAllCountries(false);
      c.setSelectedCountryCode(next.country);
    }
  };

  const payloadInput = () => ({
    platform,
    userEmail: values.email,
    authEmail,
    source,
    webhookUrl: platform === 'email' ? '' : values.webhook,
    appId: app!.id,
    appStore: app!.store,
    country: values.country,
  });

  const connect = async () => {
    const c = useConnectionStore.getState();
    c.setConnectionError(null);
    c.setConnectionState('connecting');
    try {
      const { result, status } = await connectMutation.mutateAsync(connectionRequest(payloadInput()));
      const pending = status?.status === 'pending_confirmation';
      setConfirmationMessage(pending ? (result.confirmation?.sent === false ? result.confirmation.message : null) : null);
      c.setDestinationId(result.destination_id);
      c.setConnectionState('connected');
      onConnected?.(result.destination_id, { signingSecret: result.signing_secret ?? null });
      // The status card carries the invitation to sign up from here on; the search hero's banner would be a second one.
      c.setShowSignupBanner(false);
      toast.success(
        pending ? `Almost there — check ${values.email} to confirm` : platform === 'email' ? 'Connected — the first e-mail is on its way' : `Connected to ${PLATFORM_GUIDES[platform].name}`,
      );
    } catch (err) {
      c.setConnectionError(errorMessage(err));
      c.setConnectionState('error');
    }
  };

  const startOAuth = async (p: 'slack' | 'discord') => {
    const c = useConnectionStore.getState();
    setOauthBusy(true);
    c.setConnectionError(null);
    try {
      const payload = encodeConnectionPayload(buildConnectionPayload({ ...payloadInput(), webhookUrl: '' }));
      const { url } = await startOAuthMutation.mutateAsync({ platform: p, payload });
      window.location.assign(url);
    } catch (err) {
      c.setConnectionError(errorMessage(err));
      c.setConnectionState('error');
      setOauthBusy(false);
    }
  };

  const connectAnother = useCallback(() => {
    const c = useConnectionStore.getState();
    c.setDestinationId(null);
    c.clearWebhooks();
    c.setConnectionState('choosing_platform');
    focusNext.current = 'platform';
  }, []);

  if (!app) return null;

  return (
    <section ref={containerRef} className={styles.flow} aria-label="Send the reviews">
      {state === 'connected' && destinationId ? (
        <ConnectionStatus
          destinationId={destinationId}
          onConnectAnother={connectAnother}
          address={platform === 'email' ? userEmail : undefined}
          confirmationMessage={confirmationMessage}
        />
      ) : state === 'choosing_platform' || state === 'idle' ? (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            focusNext.current = 'step2';
            useConnectionStore.getState().setConnectionState('entering_webhook');
          }}
        >
          <p className={styles.progress}>Step 1 of 2</p>
          <PlatformPicker value={platform} onChange={choosePlatform} name="arb-platform" platforms={forOrganisation ? ORG_PLATFORMS : PLATFORMS} />
          <div className={styles.actions}>
            <button type="submit" className={styles.primary} disabled={!continueEnabled}>
              Continue
            </button>
          </div>
        </form>
      ) : (
        <>
          <WebhookStep
            platform={platform}
            appStore={app.store}
            values={values}
            onChange={changeValues}
            config={config.data}
            busy={state === 'connecting'}
            onBack={() => {
              focusNext.current = 'platform';
              useConnectionStore.getState().setConnectionError(null);
              useConnectionStore.getState().setConnectionState('choosing_platform');
            }}
            onConnect={() => void connect()}
            onOAuth={(p) => void startOAuth(p)}
            oauthBusy={oauthBusy}
            headingRef={(el) => {
              stepHeading.current = el;
            }}
          />
          <div role="alert" className={styles.alert}>
            {state === 'error' ? connectionError : null}
          </div>
          <div role="status" className={styles.live}>
            {state === 'connecting' ? 'Connecting… the welcome message follows within seconds.' : null}
          </div>
        </>
      )}
    </section>
  );
}

export default function ConnectFlow(props: FlowProps) {
  return (
    <QueryProvider>
      <Flow {...props} />
    </QueryProvider>
  );
}
