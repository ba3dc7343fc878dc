/**
 * Full-page navigations of the top window (the site may be shown inside an iframe, e.g. a help widget or a CRM).
 * One object so tests can watch where the app sends the browser.
 */
export const topWindow = {
  navigate(url: string): void {
    const target = window.top ?? window;
    try {
      target.location.href = url;
    } catch {
      // A cross-origin parent refuses access to its location: leave from our own frame instead.
      window.location.href = url;
    }
  },
};
