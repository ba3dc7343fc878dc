// Escape in a drawer's dropdown closes the dropdown only (issue 31): rsuite's real Drawer and CheckPicker, as in
// "Add app" (components/dashboard/apps/AddAppDrawer.tsx). Without the wrapper the first Escape closes both.
import { screen, waitFor } from '@testing-library/react';
import { CheckPicker, Drawer } from 'rsuite';
import { describe, expect, test, vi } from 'vitest';
import KeepEscapeInPicker from '@/components/dashboard/KeepEscapeInPicker';
import { render } from '@/tests/helpers/render';

const DATA = [
  { label: 'United States', value: 'us' },
  { label: 'Germany', value: 'de' },
];

function Scene({ onClose, wrapped }: { onClose: () => void; wrapped: boolean }) {
  const picker = <CheckPicker label="App Store countries" data={DATA} defaultValue={['us']} container={() => document.querySelector('.rs-drawer') as HTMLElement} />;
  return (
    <Drawer open onClose={onClose} size="sm" placement="right">
      <Drawer.Body>{wrapped ? <KeepEscapeInPicker>{picker}</KeepEscapeInPicker> : picker}</Drawer.Body>
    </Drawer>
  );
}

const toggle = () => screen.getByRole('combobox');

describe('Escape in a drawer’s picker', () => {
  test('the first Escape closes the open picker and keeps the drawer; the next one closes the drawer', async () => {
    const onClose = vi.fn();
    const { user } = render(<Scene onClose={onClose} wrapped />);
    await user.click(toggle());
    await waitFor(() => expect(toggle().getAttribute('aria-expanded')).toBe('true'));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(toggle().getAttribute('aria-expanded')).toBe('false'));
    expect(onClose).not.toHaveBeenCalled();
    toggle().focus();
    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  test('without it rsuite closes the drawer on the same Escape (what the wrapper prevents)', async () => {
    const onClose = vi.fn();
    const { user } = render(<Scene onClose={onClose} wrapped={false} />);
    await user.click(toggle());
    await waitFor(() => expect(toggle().getAttribute('aria-expanded')).toBe('true'));
    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalled();
  });
});
