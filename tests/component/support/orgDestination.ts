// A destination as GET v1/org/destinations lists it: the drawer and page tests start from this and change what they test.
import type { OrgDestination } from '@/lib/api/destinations';

export const DESTINATION_ID = 'dst_abcdefghijklmnopqrstuvwx';
export const APP_KEY = 'apple_app_store__284882215';

export const orgDestination = (overrides: Partial<OrgDestination> = {}): OrgDestination => ({
  id: DESTINATION_ID,
  platform: 'slack',
  platform_name: 'Slack',
  label: '#reviews',
  target: 'hooks.slack.com …abcd',
  apps: [{ app_key: APP_KEY, app_id: '284882215', app_store: 'apple_app_store', title: 'Lantern Notes', icon_url: null }],
  filters: {},
  translate_to: null,
  spike_alerts: false,
  weekly_summaries: false,
  status: 'active',
  status_reason: null,
  cause: null,
  fix: null,
  warning: null,
  last_delivery_at: null,
  last_error: null,
  last_error_at: null,
  first_message: 'delivered',
  first_delivery_problem: null,
  parked: 0,
  parked_reason: null,
  created_at: new Date().toISOString(),
  ...overrides,
});
