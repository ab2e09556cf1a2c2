/**
 * The page's only script: every second it asks the server whether the trace file changed
 * (`/api/version`) and, when it did, fetches the page again and swaps its content in (the markup
 * comes from the server, escaped; scripts inserted this way never run). Runs as a classic script
 * under the page's nonce.
 */
export const PAGE_SCRIPT = `
(() => {
  const app = document.getElementById('app');
  if (!app) return;
  let version = app.dataset.version;
  const poll = async () => {
    try {
      const response = await fetch('/api/version', { cache: 'no-store' });
      const body = await response.json();
      if (String(body.version) !== version) {
        const page = await fetch(location.pathname + location.search, { cache: 'no-store', headers: { 'x-keel-partial': '1' } });
        if (page.ok) {
          app.innerHTML = await page.text();
          version = String(body.version);
          app.dataset.version = version;
        }
      }
    } catch (error) {
      // The viewer was stopped: keep the page as it is and try again.
    }
    setTimeout(poll, 1000);
  };
  setTimeout(poll, 1000);
})();
`;
