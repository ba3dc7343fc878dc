import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { notPreflight, ok, route, startApiFake, type ApiFake } from './support/apiFake';
import { resetStores } from '@/tests/helpers/resetStores';
import { topWindow } from '@/lib/navigation';
import { useAnimationStore } from '@/stores/animation';
import { useAppSelectionStore } from '@/stores/appSelection';
import { AUTH_STORAGE_NAME, migrateAuthState, rehydrateAuth, selectIsSignedIn, selectUserLabel, useAuthStore } from '@/stores/auth';
import { useConnectionStore } from '@/stores/connection';
import { useModalStore, useSharedModalStore } from '@/stores/modal';

beforeEach(() => resetStores());

describe('auth store', () => {
  test('starts signed out', () => {
    expect(useAuthStore.getState().authData).toEqual({});
    expect(selectIsSignedIn(useAuthStore.getState())).toBe(false);
  });

  test('setAuthData replaces the whole object rather than merging', () => {
    useAuthStore.getState().setAuthData({ authToken: 't1', email: 'ana@example.com', displayName: 'Ana' });
    useAuthStore.getState().setAuthData({ authToken: 't2', email: 'bo@example.com' });
    expect(useAuthStore.getState().authData).toEqual({ authToken: 't2', email: 'bo@example.com' });
  });

  test('persists only authData, under arb-storage, with a version', () => {
    useAuthStore.getState().setAuthData({ authToken: 't1', email: 'ana@example.com' });
    const stored = JSON.parse(localStorage.getItem(AUTH_STORAGE_NAME) ?? 'null');
    expect(stored).toEqual({ state: { authData: { authToken: 't1', email: 'ana@example.com' } }, version: 1 });
  });

  test('rehydrates the stored user', async () => {
    localStorage.setItem(AUTH_STORAGE_NAME, JSON.stringify({ state: { authData: { authToken: 't9', email: 'cy@example.com', name: 'Cy' } }, version: 1 }));
    await rehydrateAuth();
    expect(useAuthStore.getState().authData).toEqual({ authToken: 't9', email: 'cy@example.com', name: 'Cy' });
  });

  test('migrates the earlier unversioned shape', async () => {
    localStorage.setItem(AUTH_STORAGE_NAME, JSON.stringify({ state: { authData: { token: 'old', email: 'dee@example.com', extra: 1 } }, version: 0 }));
    await rehydrateAuth();
    expect(useAuthStore.getState().authData).toEqual({ authToken: 'old', email: 'dee@example.com' });
    expect(migrateAuthState(null, 0)).toEqual({ authData: {} });
  });

  test('logout clears ALL localStorage, empties auth and sends the top window to /', () => {
    const navigate = vi.spyOn(topWindow, 'navigate').mockImplementation(() => undefined);
    useAuthStore.getState().setAuthData({ authToken: 't1', email: 'ana@example.com' });
    localStorage.setItem('utm_source', 'newsletter');
    localStorage.setItem('something-else', 'x');
    useAuthStore.getState().logout();
    expect(localStorage.length).toBe(0);
    expect(useAuthStore.getState().authData).toEqual({});
    expect(navigate).toHaveBeenCalledWith('/');
    navigate.mockRestore();
  });

  test('label falls back from displayName to name to email', () => {
    const label = (authData: Record<string, string>) => selectUserLabel({ ...useAuthStore.getState(), authData });
    expect(label({ email: 'a@x.co', name: 'Ann', displayName: 'Annie' })).toBe('Annie');
    expect(label({ email: 'a@x.co', name: 'Ann', displayName: ' ' })).toBe('Ann');
    expect(label({ email: 'a@x.co' })).toBe('a@x.co');
  });
});

describe('animation store', () => {
  test('isAnimating defaults to false, toggles, and is not persisted', () => {
    expect(useAnimationStore.getState().isAnimating).toBe(false);
    useAnimationStore.getState().setIsAnimating(true);
    expect(useAnimationStore.getState().isAnimating).toBe(true);
    expect(localStorage.length).toBe(0);
  });
});

describe('modal stores', () => {
  test('the modal defaults to size xs, backdrop static, role alertdialog, closed', () => {
    expect(useModalStore.getState()).toMatchObject({ open: false, size: 'xs', backdrop: 'static', role: 'alertdialog' });
  });

  test('openModal sets content and reverts unset options to the defaults', () => {
    useModalStore.getState().openModal({ title: 'A', body: 'B', size: 'lg', role: 'dialog' });
    useModalStore.getState().cancel();
    useModalStore.getState().openModal({ title: 'C', body: 'D' });
    expect(useModalStore.getState()).toMatchObject({ open: true, title: 'C', body: 'D', size: 'xs', backdrop: 'static', role: 'alertdialog' });
  });

  test('confirm runs the success callback, cancel the cancel callback; both close', () => {
    const onSuccess = vi.fn();
    const onCancel = vi.fn();
    useModalStore.getState().openModal({ title: 'T', body: 'B', onSuccess, onCancel });
    useModalStore.getState().confirm();
    expect(onSuccess).toHaveBeenCalledTimes(1);
    expect(useModalStore.getState().open).toBe(false);
    useModalStore.getState().openModal({ title: 'T', body: 'B', onSuccess, onCancel });
    useModalStore.getState().cancel();
    expect(onCancel).toHaveBeenCalledTimes(1);
    expect(onSuccess).toHaveBeenCalledTimes(1);
  });

  test('the shared modal holds open, title and body', () => {
    expect(useSharedModalStore.getState()).toMatchObject({ open: false, title: '', body: '' });
    useSharedModalStore.getState().showModal('Saved', 'Your settings are saved.');
    expect(useSharedModalStore.getState()).toMatchObject({ open: true, title: 'Saved', body: 'Your settings are saved.' });
    useSharedModalStore.getState().hideModal();
    expect(useSharedModalStore.getState().open).toBe(false);
  });
});

describe('connection store', () => {
  test('defaults: slack, idle, source home, no banner', () => {
    expect(useConnectionStore.getState()).toMatchObject({
      userEmail: '',
      selectedPlatform: 'slack',
      integrationWebhook: '',
      connectionState: 'idle',
      connectionSource: 'home',
      showSignupBanner: false,
    });
  });

  test('actions set each field and the banner toggles', () => {
    const s = useConnectionStore.getState();
    s.setUserEmail('ana@example.com');
    s.setSelectedPlatform('discord');
    s.setIntegrationWebhook('https://discord.com/api/webhooks/1/abc');
    s.setConnectionState('connecting');
    s.setConnectionSource('try-free');
    s.toggleSignupBanner();
    expect(useConnectionStore.getState()).toMatchObject({
      userEmail: 'ana@example.com',
      selectedPlatform: 'discord',
      integrationWebhook: 'https://discord.com/api/webhooks/1/abc',
      connectionState: 'connecting',
      connectionSource: 'try-free',
      showSignupBanner: true,
    });
    useConnectionStore.getState().resetConnection();
    expect(useConnectionStore.getState().selectedPlatform).toBe('slack');
  });
});

describe('app selection store', () => {
  let fake: ApiFake;
  afterEach(async () => {
    fake?.restore();
    await fake?.close();
  });

  test('defaults', () => {
    expect(useAppSelectionStore.getState()).toMatchObject({
      email: '',
      query: '',
      selectedAppDetails: null,
      selectedCountryCode: 'us',
      isOpen: false,
      platform: 'slack',
      continueButtonEnabled: false,
      discordWebhook: '',
      msteamsWebhook: '',
      mattermostWebhook: '',
      storeName: '',
      modal: null,
      selectedButton: null,
      showSignupBanner: false,
    });
  });

  test('selecting an app stores it and sends GET v1/apps/event?event=app_selected', async () => {
    fake = await startApiFake([route('GET', '/api/v1/apps/event', ok({ ok: true }))]);
    useAppSelectionStore.getState().setSelectedAppDetails({ id: 'com.spotify.music', store: 'google_play_store', title: 'Spotify' });
    expect(useAppSelectionStore.getState()).toMatchObject({
      selectedAppDetails: { id: 'com.spotify.music', store: 'google_play_store', title: 'Spotify' },
      storeName: 'Google Play',
    });
    const [req] = await fake.waitForRequests(1, notPreflight);
    expect(req.path).toBe('/api/v1/apps/event');
    expect(Object.fromEntries(req.query)).toEqual({ event: 'app_selected', app_id: 'com.spotify.music', app_store: 'google_play_store' });
  });

  test('clearing the selection sends nothing', async () => {
    fake = await startApiFake([route('GET', '/api/v1/apps/event', ok({ ok: true }))]);
    useAppSelectionStore.getState().setSelectedAppDetails(null);
    await new Promise((r) => setTimeout(r, 50));
    expect(fake.requests.filter(notPreflight)).toHaveLength(0);
  });
});
