/**
 * "Add destination": the home page's own flow — search the app, pick the platform, paste the webhook (or address) —
 * in a drawer, connecting with the signed-in session so the new destination is the organisation's at once. The
 * dashboard also offers Webhook (signed JSON to any HTTPS endpoint): its signing secret is shown here, once.
 */
import { useId, useState } from 'react';
import Drawer from 'rsuite/Drawer';
import 'rsuite/Drawer/styles/index.css';
import ConnectFlow from '@/components/connect/ConnectFlow';
import AppSearch from '@/components/search/AppSearch';
import SelectedAppCard from '@/components/search/SelectedAppCard';
import { useConnectionStore } from '@/stores/connection';
import styles from '../Dashboard.module.css';
import own from './Destinations.module.css';
import WebhookSecret from './WebhookSecret';

export default function AddDestination({ open, onClose, onConnected }: { open: boolean; onClose: () => void; onConnected: () => void }) {
  const id = useId();
  const picked = useConnectionStore((s) => s.selectedAppDetails !== null);
  const [secret, setSecret] = useState<string | null>(null);
  return (
    <Drawer open={open} onClose={onClose} placement="right" size="md" aria-labelledby={`${id}-title`} closeButton={false}>
      <Drawer.Header closeButton={false}>
        <Drawer.Title id={`${id}-title`}>Add destination</Drawer.Title>
      </Drawer.Header>
      <Drawer.Body>
        <div className={own.addBody}>
          <p className={styles.muted}>Find the app, then choose where its reviews go. The destination belongs to your organisation at once.</p>
          {secret ? <WebhookSecret secret={secret} onDone={() => setSecret(null)} /> : null}
          <AppSearch />
          {picked ? (
            <>
              <SelectedAppCard />
              <ConnectFlow
                forOrganisation
                onConnected={(_id, extra) => {
                  if (extra.signingSecret) setSecret(extra.signingSecret);
                  onConnected();
                }}
              />
            </>
          ) : null}
          <div className={styles.row}>
            <button type="button" className={styles.quiet} onClick={onClose}>
              Close
            </button>
          </div>
        </div>
      </Drawer.Body>
    </Drawer>
  );
}
