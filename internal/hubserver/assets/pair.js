// The pairing page: it sends the code of the link, which stays in the
// fragment so that neither a proxy's log nor a link preview sees it, to
// the hub once, and opens the page when the hub pairs this device. The
// device's token, in the answer, is kept for the page's origin in
// localStorage, across restarts of the browser, and sent in a header:
// never a cookie, which every other service of the host would receive.
'use strict';
async function pair() {
  const out = document.getElementById('pair');
  const m = /^#code=([0-9a-f]{64})$/.exec(location.hash);
  if (m) history.replaceState(null, '', '/pair');
  if (!m) {
    out.textContent = 'This address holds no pairing code: open the whole link askuser hub pair printed.';
    return;
  }
  try {
    const r = await fetch('/api/pair', {
      method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ code: m[1] }), cache: 'no-store',
    });
    if (r.ok) {
      const d = await r.json();
      localStorage.setItem('askuser-device', d.token);
      out.textContent = 'Paired: this device is paired as ' + d.device + '. Opening the questions…';
      location.replace('/');
      return;
    }
    out.textContent = 'Not paired: ' + (await r.text()).trim() + '.';
  } catch (err) {
    out.textContent = 'Not paired: the page could not reach the hub.';
  }
}
// A second link opened in the same tab changes the fragment only.
window.addEventListener('hashchange', pair);
pair();
