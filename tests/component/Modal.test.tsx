import { act, fireEvent, screen } from '@testing-library/react';
import { beforeEach, describe, expect, test, vi } from 'vitest';
import { render } from '@/tests/helpers/render';
import { resetStores } from '@/tests/helpers/resetStores';
import Modal, { SharedModal } from '@/components/common/Modal';
import { useModalStore, useSharedModalStore } from '@/stores/modal';

beforeEach(() => resetStores());

describe('Modal', () => {
  test('renders nothing while closed', () => {
    render(<Modal />);
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  test('shows title, body and a Close button in an alertdialog that takes focus', () => {
    render(
      <>
        <button type="button">Opener</button>
        <Modal />
      </>,
    );
    screen.getByRole('button', { name: 'Opener' }).focus();
    act(() => useModalStore.getState().openModal({ title: 'Webhook saved', body: 'New reviews will arrive in #reviews.' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Webhook saved' });
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    expect(dialog).toHaveAccessibleDescription('New reviews will arrive in #reviews.');
    expect(screen.getByRole('button', { name: 'Close' })).toHaveFocus();
  });

  test('Close runs the cancel callback, closes, and gives focus back', async () => {
    const onCancel = vi.fn();
    const { user } = render(
      <>
        <button type="button">Opener</button>
        <Modal />
      </>,
    );
    const opener = screen.getByRole('button', { name: 'Opener' });
    opener.focus();
    act(() => useModalStore.getState().openModal({ title: 'T', body: 'B', onCancel }));
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(onCancel).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(opener).toHaveFocus();
  });

  test('Escape closes it; a click on the static backdrop does not', async () => {
    const { user } = render(<Modal />);
    act(() => useModalStore.getState().openModal({ title: 'T', body: 'B' }));
    fireEvent.mouseDown(screen.getByTestId('modal-backdrop'));
    expect(screen.getByRole('alertdialog')).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  test('with backdrop true a click outside cancels', () => {
    render(<Modal />);
    act(() => useModalStore.getState().openModal({ title: 'T', body: 'B', backdrop: true }));
    fireEvent.mouseDown(screen.getByTestId('modal-backdrop'));
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  test('a success callback adds a confirm button', async () => {
    const onSuccess = vi.fn();
    const { user } = render(<Modal />);
    act(() => useModalStore.getState().openModal({ title: 'Remove app?', body: 'Reviews stop.', successLabel: 'Remove', onSuccess, role: 'dialog' }));
    await user.click(screen.getByRole('button', { name: 'Remove' }));
    expect(onSuccess).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  test('Tab stays inside the dialog', async () => {
    const { user } = render(
      <>
        <button type="button">Outside</button>
        <Modal />
      </>,
    );
    act(() => useModalStore.getState().openModal({ title: 'T', body: 'B', onSuccess: () => undefined }));
    const ok = screen.getByRole('button', { name: 'OK' });
    const close = screen.getByRole('button', { name: 'Close' });
    expect(ok).toHaveFocus();
    await user.tab();
    expect(close).toHaveFocus();
    await user.tab();
    expect(ok).toHaveFocus();
    await user.tab({ shift: true });
    expect(close).toHaveFocus();
  });

  test('the shared modal shows its title and body and closes', async () => {
    const { user } = render(<SharedModal />);
    act(() => useSharedModalStore.getState().showModal('Check your inbox', 'We sent the reviews to ana@example.com.'));
    expect(screen.getByRole('alertdialog', { name: 'Check your inbox' })).toHaveTextContent('We sent the reviews to ana@example.com.');
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(useSharedModalStore.getState().open).toBe(false);
  });
});
