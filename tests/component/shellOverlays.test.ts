import { beforeEach, describe, expect, test, vi } from 'vitest';

// Whether the overlays were asked for is kept on the window.
beforeEach(() => {
  delete window.arbShellOverlays;
});

async function overlays() {
  return import('@/lib/toast');
}

describe('the shell mounts toasts and modals only once asked for', () => {
  test('nothing asks on its own; a toast raised through withToast does', async () => {
    const { shellOverlaysWanted, subscribeShellOverlays, withToast } = await overlays();
    const listener = vi.fn();
    const unsubscribe = subscribeShellOverlays(listener);
    expect(shellOverlaysWanted()).toBe(false);
    withToast(() => undefined);
    expect(shellOverlaysWanted()).toBe(true);
    expect(listener).toHaveBeenCalledTimes(1);
    unsubscribe();
  });

  test('opening either modal asks', async () => {
    const { shellOverlaysWanted } = await overlays();
    const { useModalStore, useSharedModalStore } = await import('@/stores/modal');
    expect(shellOverlaysWanted()).toBe(false);
    useModalStore.getState().openModal({ title: 'T', body: 'B' });
    expect(shellOverlaysWanted()).toBe(true);

    delete window.arbShellOverlays;
    useSharedModalStore.getState().showModal('T', 'B');
    expect(shellOverlaysWanted()).toBe(true);
  });

  test('a page that imports lib/hotToast (raises toasts directly) asks when it loads, and the shell hears it', async () => {
    const { shellOverlaysWanted, subscribeShellOverlays } = await overlays();
    const listener = vi.fn();
    const unsubscribe = subscribeShellOverlays(listener);
    expect(shellOverlaysWanted()).toBe(false);
    vi.resetModules();
    await import('@/lib/hotToast');
    expect(shellOverlaysWanted()).toBe(true);
    expect(listener).toHaveBeenCalledTimes(1);
    unsubscribe();
  });
});
