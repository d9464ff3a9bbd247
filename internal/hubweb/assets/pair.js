// The pairing page: it sends the code of the link, which stays in the
// fragment so that neither a proxy's log nor a link preview sees it, to
// the hub once, and opens the page when the hub pairs this device.
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
      body: JSON.stringify({ code: m[1] }), credentials: 'same-origin', cache: 'no-store',
    });
    const text = (await r.text()).trim();
    if (r.ok) {
      out.textContent = 'Paired: ' + text + '. Opening the questions…';
      location.replace('/');
      return;
    }
    out.textContent = 'Not paired: ' + text + '.';
  } catch (err) {
    out.textContent = 'Not paired: the page could not reach the hub.';
  }
}
// A second link opened in the same tab changes the fragment only.
window.addEventListener('hashchange', pair);
pair();
