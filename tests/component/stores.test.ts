import { act, renderHook } from '@testing-library/react';
import { beforeEach, describe, expect, test, vi } from 'vitest';
import { notPreflight, ok, route, startApiFake } from './support/apiFake';
import { resetStores } from '@/tests/helpers/resetStores';
import { useSelectApp } from '@/components/search/useSelectApp';
import { topWindow } from '@/lib/navigation';
import { useAnimationStore } from '@/stores/animation';
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

describe('connection store (the connect flow\'s one store)', () => {
  test('defaults: slack, idle, source home, no banner, no app, storefront us searched, all countries watched', () => {
    expect(useConnectionStore.getState()).toMatchObject({
      query: '',
      isOpen: false,
      selectedAppDetails: null,
      selectedCountryCode: 'us',
      allCountries: true,
      userEmail: '',
      selectedPlatform: 'slack',
      webhooks: {},
      connectionState: 'idle',
      connectionSource: 'home',
      showSignupBanner: false,
      destinationId: null,
      connectionError: null,
    });
  });

  test('actions set each field, webhooks are kept per platform, the banner toggles', () => {
    const s = useConnectionStore.getState();
    s.setUserEmail('ana@example.com');
    s.setSelectedPlatform('discord');
    s.setWebhook('discord', 'https://discord.com/api/webhooks/1/abc');
    s.setWebhook('slack', 'https://hooks.slack.com/services/T1/B1/x');
    s.setConnectionState('connecting');
    s.setConnectionSource('try-free');
    s.toggleSignupBanner();
    expect(useConnectionStore.getState()).toMatchObject({
      userEmail: 'ana@example.com',
      selectedPlatform: 'discord',
      webhooks: { discord: 'https://discord.com/api/webhooks/1/abc', slack: 'https://hooks.slack.com/services/T1/B1/x' },
      connectionState: 'connecting',
      connectionSource: 'try-free',
      showSignupBanner: true,
    });
    useConnectionStore.getState().clearWebhooks();
    expect(useConnectionStore.getState().webhooks).toEqual({});
    useConnectionStore.getState().resetConnection();
    expect(useConnectionStore.getState().selectedPlatform).toBe('slack');
  });

  test('selecting an app stores it and closes the results list; the store itself sends nothing', async () => {
    const fake = await startApiFake([route('GET', '/api/v1/apps/event', ok({ ok: true }))]);
    try {
      useConnectionStore.getState().setIsOpen(true);
      useConnectionStore.getState().setSelectedAppDetails({ id: 'com.spotify.music', store: 'google_play_store', title: 'Spotify' });
      expect(useConnectionStore.getState()).toMatchObject({
        selectedAppDetails: { id: 'com.spotify.music', store: 'google_play_store', title: 'Spotify' },
        isOpen: false,
      });
      useConnectionStore.getState().setSelectedAppDetails(null);
      await new Promise((r) => setTimeout(r, 50));
      expect(fake.requests.filter(notPreflight)).toHaveLength(0);
    } finally {
      fake.restore();
      await fake.close();
    }
  });
});

describe('useSelectApp', () => {
  test('selects the app and sends GET v1/apps/event?event=app_selected', async () => {
    const fake = await startApiFake([route('GET', '/api/v1/apps/event', ok({ ok: true }))]);
    try {
      const { result } = renderHook(() => useSelectApp());
      act(() => result.current({ id: 'com.spotify.music', store: 'google_play_store', title: 'Spotify' }));
      expect(useConnectionStore.getState().selectedAppDetails).toMatchObject({ id: 'com.spotify.music', store: 'google_play_store' });
      const [req] = await fake.waitForRequests(1, notPreflight);
      expect(req.path).toBe('/api/v1/apps/event');
      expect(Object.fromEntries(req.query)).toEqual({ event: 'app_selected', app_id: 'com.spotify.music', app_store: 'google_play_store' });
    } finally {
      fake.restore();
      await fake.close();
    }
  });
});
