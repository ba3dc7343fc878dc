import { act, screen } from '@testing-library/react';
import toast, { Toaster } from 'react-hot-toast';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { render } from '@/tests/helpers/render';
import { MESSAGES } from '@/lib/messages';
import { TOAST_LIMIT, TOAST_OPTIONS } from '@/lib/toast';

afterEach(() => {
  act(() => toast.remove());
  vi.useRealTimers();
});

describe('toasts', () => {
  test('the product’s texts, word for word', () => {
    expect(MESSAGES.tryFreeToast).toBe('Start by typing name of your app');
    expect(MESSAGES.orgAuthFailed).toBe('Some Error Occured');
    expect(MESSAGES.redirectingToDashboard).toBe('Redirecting to dashboard...');
    expect(MESSAGES.authErrorLog).toBe('Serious Error AuthExchange');
  });

  test('at most 20 toasts are kept', () => {
    render(<Toaster toastOptions={TOAST_OPTIONS} />);
    act(() => {
      for (let i = 1; i <= 25; i += 1) toast(`Toast number ${i}`);
    });
    expect(screen.getAllByText(/^Toast number \d+$/)).toHaveLength(TOAST_LIMIT);
    expect(TOAST_LIMIT).toBe(20);
  });

  test('blank and error last 4 s, success 2 s, loading until replaced', () => {
    vi.useFakeTimers();
    render(<Toaster toastOptions={TOAST_OPTIONS} />);
    act(() => {
      toast('blank toast');
      toast.error('error toast');
      toast.success('success toast');
      toast.loading('loading toast');
    });
    act(() => void vi.advanceTimersByTime(1999));
    expect(screen.getByText('success toast')).toBeInTheDocument();
    act(() => void vi.advanceTimersByTime(2));
    act(() => void vi.advanceTimersByTime(1000)); // removal delay after dismissal
    expect(screen.queryByText('success toast')).toBeNull();
    expect(screen.getByText('blank toast')).toBeInTheDocument();
    expect(screen.getByText('error toast')).toBeInTheDocument();
    act(() => void vi.advanceTimersByTime(1000));
    act(() => void vi.advanceTimersByTime(1000));
    expect(screen.queryByText('blank toast')).toBeNull();
    expect(screen.queryByText('error toast')).toBeNull();
    act(() => void vi.advanceTimersByTime(60_000));
    expect(screen.getByText('loading toast')).toBeInTheDocument();
  });
});
