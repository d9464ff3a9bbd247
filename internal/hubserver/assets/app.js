// The hub's web page. Every text that comes from a question is set with
// textContent or as a form control's value: nothing of it becomes markup,
// a link target, a style or an event handler.
'use strict';
(() => {
  const PAGE = 50;
  const MAX_DRAFTS = 50; // forms kept as the person left them
  const HEARTBEAT = 25000; // the hub's, on an idle stream
  const $ = (id) => document.getElementById(id);
  const list = $('list');
  const state = {
    items: new Map(), // id → summary
    order: [], // ids, newest first
    rows: new Map(), // id → li
    shown: PAGE,
    open: null, // the id of the open form
    drafts: new Map(), // id → a form left for the list, as the person left it
    skew: 0, // server time minus local time, in ms
    keys: new Map(), // id → the question's answer token
    titles: new Map(), // id → the title of a question that left the list, for a later note on it
  };

  // The credential goes in a header of each request, never in a cookie,
  // which every other service of this host would receive too (cookies
  // ignore ports). This machine's access token, from the address askuser
  // hub status prints (#token=…), is kept for this tab only and taken out
  // of the address and its history at once; a paired device's token is
  // kept for the page's origin, across restarts of the browser.
  function takeToken() {
    const m = /^#token=([0-9a-f]{64})$/.exec(location.hash);
    if (m) {
      sessionStorage.setItem('askuser-token', m[1]);
      history.replaceState(null, '', location.pathname);
    }
    return m !== null;
  }
  takeToken();
  // The address opened again in this tab changes the fragment alone.
  window.addEventListener('hashchange', () => { if (takeToken()) location.reload(); });
  function auth(headers) {
    const t = sessionStorage.getItem('askuser-token') || localStorage.getItem('askuser-device');
    return t ? { ...headers, Authorization: 'Bearer ' + t } : headers;
  }
  function get(path) {
    return fetch(path, { headers: auth({}), cache: 'no-store' });
  }

  // el builds an element: props are set as properties (text as
  // textContent), never as markup.
  function el(tag, props, ...kids) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(props || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k === 'text') e.textContent = v;
      else if (k === 'class') e.className = v;
      else if (k === 'on') for (const [t, f] of Object.entries(v)) e.addEventListener(t, f);
      else if (k in e && typeof v !== 'string') e[k] = v;
      else e.setAttribute(k, v);
    }
    for (const c of kids) if (c !== null && c !== undefined && c !== false) e.append(c);
    return e;
  }

  let uid = 0;
  const nextId = (p) => `${p}-${++uid}`;

  // Runes no answer may hold, as the dialog drops them when typed.
  const dropped = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

  function textInput(props) {
    const i = el('input', Object.assign({ type: 'text', autocomplete: 'off' }, props));
    i.addEventListener('input', () => {
      if (dropped.test(i.value)) {
        dropped.lastIndex = 0;
        i.value = i.value.replace(dropped, ' ');
      }
      dropped.lastIndex = 0;
    });
    return i;
  }

  function now() { return Date.now() + state.skew; }

  function timeLeft(s) {
    if (s.stoppedBy) return 'countdown stopped';
    if (!s.deadline) return 'no time limit';
    let ms = Date.parse(s.deadline) - now();
    if (ms <= 0) return 'time is up';
    const t = Math.ceil(ms / 1000);
    const h = Math.floor(t / 3600), m = Math.floor((t % 3600) / 60), sec = t % 60;
    if (h) return `${h} h ${m} min left`;
    if (m) return `${m} min ${sec} s left`;
    return `${sec} s left`;
  }

  function age(s) {
    const t = Math.max(0, Math.round((now() - Date.parse(s.created)) / 1000));
    if (t < 60) return 'just now';
    if (t < 3600) return `${Math.floor(t / 60)} min ago`;
    return `${Math.floor(t / 3600)} h ago`;
  }

  // An approval is an agent asking leave to act: it is marked as one,
  // and its title says who wants to do what.
  const isApproval = (s) => s.kind === 'approval';

  function metaLine(s) {
    const parts = [s.agent || 'an agent'];
    if (s.project) parts.push(s.project);
    if (s.machine) parts.push(s.machine);
    if (isApproval(s)) parts.push('approval');
    else {
      parts.push(s.contract);
      parts.push(s.questions === 1 ? '1 question' : `${s.questions} questions`);
    }
    return parts.join(' · ');
  }

  function approvalMark(s) {
    return isApproval(s) ? el('span', { class: 'badge approval', text: 'Approval' }) : null;
  }

  // The list.

  function rowFor(id) {
    let li = state.rows.get(id);
    const s = state.items.get(id);
    if (!li) {
      li = el('li', { class: 'row' });
      li.dataset.id = id;
      state.rows.set(id, li);
    }
    const link = el('a', { href: '#q=' + encodeURIComponent(id), class: 'row-link' },
      approvalMark(s),
      el('span', { class: 'title', text: s.title || '(no title)' }),
      el('span', { class: 'meta', text: metaLine(s) }),
      el('span', { class: 'when' },
        el('span', { class: 'age', text: age(s) }), ' · ',
        el('span', { class: 'left', text: timeLeft(s) })));
    const had = li.contains(document.activeElement);
    li.replaceChildren(link);
    if (had) link.focus();
    return li;
  }

  function insertSorted(id) {
    const s = state.items.get(id);
    const at = state.order.indexOf(id);
    if (at >= 0) state.order.splice(at, 1);
    const t = Date.parse(s.created);
    let lo = 0, hi = state.order.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (Date.parse(state.items.get(state.order[mid]).created) > t) lo = mid + 1; else hi = mid;
    }
    state.order.splice(lo, 0, id);
  }

  // renderList moves as few rows as it can, and keeps the row the
  // person looks at where it is on the screen.
  function renderList() {
    let anchor = null, top = 0;
    if (window.scrollY > 0) {
      for (const li of list.children) {
        const r = li.getBoundingClientRect();
        if (r.bottom > 0) { anchor = li; top = r.top; break; }
      }
    }
    const ids = state.order.slice(0, state.shown);
    const want = new Set(ids);
    for (const li of [...list.children]) if (!want.has(li.dataset.id)) li.remove();
    let ref = list.firstChild;
    for (const id of ids) {
      const li = state.rows.get(id) || rowFor(id);
      if (li === ref) { ref = ref.nextSibling; continue; }
      list.insertBefore(li, ref);
    }
    const rest = state.order.length - ids.length;
    $('more').hidden = rest <= 0;
    $('more').textContent = `Show ${Math.min(PAGE, rest)} more (${rest} not shown)`;
    $('empty').hidden = state.order.length > 0;
    if (anchor && anchor.isConnected) window.scrollBy(0, anchor.getBoundingClientRect().top - top);
    const n = state.order.length;
    $('waiting-count').textContent = n <= 1 ? '' : `${n - 1} other question${n === 2 ? '' : 's'} waiting`;
  }

  function notice(text) { $('notice').textContent = text; }

  // The stream of the list.

  const on = {
    snapshot(data) {
      const d = JSON.parse(data);
      state.skew = Date.parse(d.now) - Date.now();
      state.items.clear();
      state.rows.clear();
      list.replaceChildren();
      for (const s of d.questions) state.items.set(s.id, s);
      state.order = d.questions.map((s) => s.id);
      online(d.online);
      renderList();
      performance.mark('askuser-list');
      route();
    },
    rest(data) {
      for (const s of JSON.parse(data).questions) {
        state.items.set(s.id, s);
        state.order.push(s.id);
      }
      renderList();
      // A question that closed while the page was away from the hub is
      // not in the list any more: its form says where it went.
      if (state.open && !state.items.has(state.open)) recheck(state.open);
    },
    waiting(data) {
      const s = JSON.parse(data);
      state.items.set(s.id, s);
      if (state.rows.has(s.id)) rowFor(s.id);
      insertSorted(s.id);
      renderList();
      if (state.open === s.id) updateCountdown();
    },
    closed(data) {
      const d = JSON.parse(data);
      const s = state.items.get(d.id);
      // A question closed again (the answer given here came second to
      // one given on another machine) is named by the title it had.
      const title = s ? (s.title || '(no title)') : state.titles.get(d.id) || 'A question';
      if (s) {
        if (state.titles.size >= 1000) state.titles.clear();
        state.titles.set(d.id, title);
      }
      state.items.delete(d.id);
      state.rows.delete(d.id);
      state.drafts.delete(d.id);
      state.keys.delete(d.id);
      state.order = state.order.filter((x) => x !== d.id);
      renderList();
      notice(`“${title}”: ${d.where}`);
      if (state.open === d.id) formClosed(d.where);
    },
    synced() { online(true); },
    lost() { online(false); },
  };

  // readEvents reads the server-sent events of the stream r until it
  // ends, or falls silent for longer than two heartbeats.
  async function readEvents(r, abort) {
    const reader = r.body.pipeThrough(new TextDecoderStream()).getReader();
    let buf = '';
    let quiet = setTimeout(() => abort.abort(), 2 * HEARTBEAT);
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        clearTimeout(quiet);
        quiet = setTimeout(() => abort.abort(), 2 * HEARTBEAT);
        buf += value;
        for (let i; (i = buf.indexOf('\n\n')) >= 0;) {
          let name = '';
          const data = [];
          for (const line of buf.slice(0, i).split('\n')) {
            if (line.startsWith('event: ')) name = line.slice(7);
            else if (line.startsWith('data: ')) data.push(line.slice(6));
          }
          buf = buf.slice(i + 2);
          if (Object.hasOwn(on, name)) on[name](data.join('\n'));
        }
      }
    } finally {
      clearTimeout(quiet);
    }
  }

  // connect follows the list's stream, read with fetch so that it carries
  // the credential in a header, and connects again when it ends; a device
  // the hub refuses, revoked say, learns why, and stops.
  async function connect() {
    for (let wait = 1000; ; wait = Math.min(2 * wait, 30000)) {
      const abort = new AbortController();
      try {
        const r = await fetch('/api/events', { headers: auth({}), cache: 'no-store', signal: abort.signal });
        if (r.status === 401 || r.status === 403) {
          $('conn').textContent = 'Not connected: ' + (await r.text()).trim();
          return;
        }
        if (r.ok) {
          wait = 1000;
          await readEvents(r, abort);
        }
      } catch (err) {
        // The hub is away, or the stream fell silent: connect again.
      }
      $('conn').textContent = 'Connection lost; connecting again…';
      await new Promise((done) => setTimeout(done, wait));
    }
  }

  function online(ok) {
    $('conn').textContent = ok ? 'Connected to the hub' : 'The hub is away; waiting for it…';
  }

  // Routing: #q=ID opens a question.

  function route() {
    const m = /^#q=([a-z0-9]{1,64})$/.exec(location.hash);
    if (m) {
      if (state.open !== m[1]) openQuestion(m[1]);
      return;
    }
    if (state.open !== null) showList();
  }

  function showList() {
    const was = state.open;
    state.open = null;
    // A form left for the list opens again as it was left.
    const form = $('form-host').querySelector('form.questionnaire');
    if (was && form) {
      state.drafts.delete(was);
      state.drafts.set(was, form);
      if (state.drafts.size > MAX_DRAFTS) state.drafts.delete(state.drafts.keys().next().value);
    }
    $('form-view').hidden = true;
    $('list-view').hidden = false;
    $('form-host').replaceChildren();
    const li = was && state.rows.get(was);
    const target = li && li.isConnected ? li.querySelector('a') : $('list-title');
    if (target === $('list-title')) target.tabIndex = -1;
    target.focus();
  }

  async function post(path, id, body) {
    const headers = auth({ 'X-Askuser-Answer': state.keys.get(id) || '' });
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    try {
      const r = await fetch(`${path}?id=${encodeURIComponent(id)}`, {
        method: 'POST', headers, body, cache: 'no-store',
      });
      return { ok: r.ok, status: r.status, text: (await r.text()).trim() };
    } catch (err) {
      return { ok: false, status: 0, text: 'The page could not reach the hub; try again.' };
    }
  }

  async function openQuestion(id) {
    state.open = id;
    $('list-view').hidden = true;
    $('form-view').hidden = false;
    const host = $('form-host');
    host.replaceChildren(el('p', { text: 'Loading…' }));
    let r;
    try {
      r = await get('/api/question?id=' + encodeURIComponent(id));
    } catch (err) {
      host.replaceChildren(el('p', { class: 'closed', role: 'alert', text: 'The page could not reach the hub.' }));
      return;
    }
    if (state.open !== id) return;
    if (!r.ok) {
      state.drafts.delete(id);
      const msg = (await r.text()).trim();
      if (r.status === 410) formClosed(msg);
      else host.replaceChildren(el('p', { class: 'closed', role: 'alert', text: `This question cannot be opened: ${msg}` }));
      return;
    }
    const d = await r.json();
    state.keys.set(id, d.answerToken);
    if (state.open !== id) return;
    const form = state.drafts.get(id) || buildForm(d);
    state.drafts.delete(id);
    host.replaceChildren(form);
    updateCountdown();
    const h = form.querySelector('h2');
    h.tabIndex = -1;
    h.focus();
  }

  async function recheck(id) {
    try {
      const r = await get('/api/question?id=' + encodeURIComponent(id));
      if (r.status === 410 && state.open === id) formClosed((await r.text()).trim());
    } catch (err) {
      // The next snapshot tries again.
    }
  }

  function formClosed(where) {
    const host = $('form-host');
    const w = where.trim().replace(/\.$/, '');
    const msg = el('p', { class: 'closed', role: 'alert', tabindex: '-1', text: `This question was ${w}.` });
    host.replaceChildren(msg);
    msg.focus();
  }

  // The countdown of the open form.

  function updateCountdown() {
    const c = document.querySelector('#form-host .countdown');
    if (!c || !state.open) return;
    const s = state.items.get(state.open) || c.summary;
    if (!s) return;
    c.querySelector('.left').textContent = s.stoppedBy ? `Countdown stopped by ${s.stoppedBy}` : timeLeft(s);
    c.querySelector('button').hidden = !s.deadline || !!s.stoppedBy;
  }

  setInterval(() => {
    for (const li of list.children) {
      const s = state.items.get(li.dataset.id);
      if (!s) continue;
      li.querySelector('.left').textContent = timeLeft(s);
      li.querySelector('.age').textContent = age(s);
    }
    updateCountdown();
  }, 1000);

  // Markdown previews, from the server's tree.

  const mdTags = { p: 'p', ul: 'ul', ol: 'ol', li: 'li', pre: 'pre', code: 'code', em: 'em', strong: 'strong', quote: 'blockquote', hr: 'hr', br: 'br' };

  function mdNodes(nodes) {
    const out = [];
    for (const n of nodes || []) {
      if (!n.t) { out.push(document.createTextNode(n.x || '')); continue; }
      let tag = mdTags[n.t];
      if (n.t === 'h') tag = 'h' + Math.min(6, Math.max(4, (n.l || 1) + 3));
      if (!tag) { out.push(document.createTextNode(n.x || '')); continue; }
      const e = document.createElement(tag);
      if (n.x) e.textContent = n.x;
      e.append(...mdNodes(n.c));
      out.push(e);
    }
    return out;
  }

  function preview(d, i, j) {
    const tree = d.previews && d.previews[`${i}.${j}`];
    if (!tree) return null;
    return el('div', { class: 'preview' }, ...mdNodes(tree));
  }

  // Forms. Each question is a fieldset; each builder returns the
  // fieldset and a read function that gives the answer or problems.

  function problemSlot() { return el('p', { class: 'problem', id: nextId('p'), hidden: true }); }

  function showProblem(slot, ctl, msg) {
    slot.textContent = msg || '';
    slot.hidden = !msg;
    for (const c of [].concat(ctl)) {
      if (!c) continue;
      if (msg) { c.setAttribute('aria-invalid', 'true'); c.setAttribute('aria-describedby', slot.id); } else { c.removeAttribute('aria-invalid'); }
    }
  }

  function choice(type, name, label, desc, checked, extra) {
    const id = nextId('c');
    const input = el('input', { type, name, id, checked: !!checked });
    const lab = el('label', { for: id, class: 'choice' }, input,
      el('span', { class: 'choice-text' }, el('span', { class: 'label', text: label }),
        extra || null,
        desc ? el('span', { class: 'desc', text: desc }) : null));
    return { input, lab };
  }

  function defaultOf(v) { return v === undefined || v === null ? undefined : v; }

  // ask_user questions.

  function askUserQuestion(d, req, q, i) {
    const slot = problemSlot();
    const fs = el('fieldset', { class: 'question' }, el('legend', { text: q.title }));
    if (q.prompt) fs.append(el('p', { class: 'prompt', text: q.prompt }));
    const free = req.allowFreeText !== false;
    const name = nextId('q');
    const def = defaultOf(q.default);
    let read;
    if (q.kind === 'single' || q.kind === 'multi') {
      const boxes = q.options.map((o, j) => {
        const on = q.kind === 'single' ? def === o.label : Array.isArray(def) && def.includes(o.label);
        const c = choice(q.kind === 'single' ? 'radio' : 'checkbox', name, o.label, o.description, on);
        fs.append(c.lab);
        const p = preview(d, i, j);
        if (p) fs.append(p);
        return c.input;
      });
      let ft = null;
      if (free) {
        const id = nextId('f');
        ft = textInput({ id, maxlength: '2000' });
        fs.append(el('label', { for: id, class: 'free-label', text: q.kind === 'single' ? 'Or your own answer' : 'Something else' }), ft);
      }
      read = () => {
        const sel = q.options.filter((_, j) => boxes[j].checked).map((o) => o.label);
        const text = ft ? ft.value.trim() : '';
        if (!sel.length && !text) return { problem: free ? 'Choose an option or write your own answer.' : 'Choose an option.', ctl: boxes[0] };
        const a = { index: i, id: q.id, title: q.title, kind: q.kind, selections: sel, usedDefault: false };
        if (text) a.freeText = text;
        return { answer: a };
      };
    } else if (q.kind === 'input') {
      const id = nextId('f');
      const t = textInput({ id, value: typeof def === 'string' ? def : '', 'aria-label': q.title });
      fs.append(t);
      read = () => {
        const text = t.value.trim();
        if (!text) return { problem: 'Write an answer.', ctl: t };
        return { answer: { index: i, id: q.id, title: q.title, kind: 'input', selections: [], freeText: text, usedDefault: false } };
      };
    } else if (q.kind === 'bool') {
      const yes = choice('radio', name, 'Yes', '', def === true);
      const no = choice('radio', name, 'No', '', def === false);
      fs.append(yes.lab, no.lab);
      read = () => {
        if (!yes.input.checked && !no.input.checked) return { problem: 'Choose yes or no.', ctl: yes.input };
        return { answer: { index: i, id: q.id, title: q.title, kind: 'bool', selections: [], usedDefault: false, value: yes.input.checked } };
      };
    } else if (q.kind === 'simple-form') {
      const fields = q.fields.map((f) => formField(f, fs));
      read = () => {
        const value = {};
        let bad = null;
        for (const f of fields) {
          const r = f.read();
          showProblem(f.slot, f.ctl, r.problem);
          if (r.problem && !bad) bad = { problem: 'Some fields need attention.', ctl: f.ctl, silent: true };
          if (r.value !== undefined) value[f.name] = r.value;
        }
        if (bad) return bad;
        return { answer: { index: i, id: q.id, title: q.title, kind: 'simple-form', selections: [], usedDefault: false, value } };
      };
    } else {
      fs.append(el('p', { class: 'problem', text: `This page cannot show a question of kind “${q.kind}”.` }));
      read = () => ({ problem: 'This question cannot be answered here.' });
    }
    fs.append(slot);
    return { node: fs, slot, read };
  }

  function formField(f, fs) {
    const slot = problemSlot();
    const def = defaultOf(f.default);
    const label = f.label + (f.required ? ' (required)' : ' (optional)');
    let ctl, read;
    if (f.kind === 'bool') {
      const c = choice('checkbox', nextId('b'), label, '', def === true);
      fs.append(c.lab);
      ctl = c.input;
      read = () => ({ value: c.input.checked });
    } else if (f.kind === 'single') {
      const group = el('div', { role: 'radiogroup', class: 'field-group' });
      const gl = el('span', { class: 'field-label', id: nextId('g'), text: label });
      group.setAttribute('aria-labelledby', gl.id);
      group.append(gl);
      const name = nextId('r');
      const radios = f.options.map((o) => {
        const c = choice('radio', name, o.label, o.description, def === o.label);
        group.append(c.lab);
        return c.input;
      });
      if (!f.required) {
        const none = choice('radio', name, '(none)', '', def === undefined);
        group.append(none.lab);
      }
      fs.append(group);
      ctl = radios[0];
      read = () => {
        const j = radios.findIndex((r) => r.checked);
        if (j < 0) return f.required ? { problem: `Choose ${f.label}.` } : {};
        return { value: f.options[j].label };
      };
    } else if (f.kind === 'multi') {
      const group = el('div', { role: 'group', class: 'field-group' });
      const gl = el('span', { class: 'field-label', id: nextId('g'), text: label });
      group.setAttribute('aria-labelledby', gl.id);
      group.append(gl);
      const name = nextId('m');
      const boxes = f.options.map((o) => {
        const c = choice('checkbox', name, o.label, o.description, Array.isArray(def) && def.includes(o.label));
        group.append(c.lab);
        return c.input;
      });
      fs.append(group);
      ctl = boxes[0];
      read = () => {
        const v = f.options.filter((_, j) => boxes[j].checked).map((o) => o.label);
        if (!v.length) return f.required ? { problem: `Choose at least one for ${f.label}.` } : {};
        return { value: v };
      };
    } else {
      const id = nextId('i');
      const t = textInput({ id, value: typeof def === 'string' ? def : '', required: !!f.required });
      fs.append(el('label', { for: id, class: 'field-label', text: label }), t);
      ctl = t;
      read = () => {
        const v = t.value.trim();
        if (!v) return f.required ? { problem: `Fill in ${f.label}.` } : {};
        return { value: v };
      };
    }
    fs.append(slot);
    return { name: f.name, slot, ctl, read };
  }

  // AskUserQuestion questions.

  function auqQuestion(d, req, q, i) {
    const slot = problemSlot();
    const required = q.required !== false;
    const legend = el('legend', {}, el('span', { class: 'chip', text: q.header }), ' ', q.question);
    const fs = el('fieldset', { class: 'question' }, legend);
    fs.append(el('p', { class: 'hint', text: (q.multiSelect ? 'Choose any.' : 'Choose one.') + (required ? '' : ' Optional.') }));
    // What an approval's agent wants to do is every option's preview:
    // it is shown once, above them.
    const shared = isApproval(d) && q.options.every((o) => o.preview === q.options[0].preview) ? preview(d, i, 0) : null;
    if (shared) {
      shared.classList.add('wanted');
      fs.append(shared);
    }
    const name = nextId('q');
    const type = q.multiSelect ? 'checkbox' : 'radio';
    const boxes = q.options.map((o, j) => {
      const badge = o.recommended ? el('span', { class: 'badge', text: 'Recommended' }) : null;
      const c = choice(type, name, o.label, o.description, false, badge);
      fs.append(c.lab);
      const p = shared ? null : preview(d, i, j);
      if (p) fs.append(p);
      return c.input;
    });
    const otherText = textInput({ id: nextId('o'), maxlength: '2000', 'aria-label': `Other answer to: ${q.question}` });
    const other = choice(type, name, 'Other', '', false);
    fs.append(other.lab, otherText);
    otherText.addEventListener('input', () => { if (otherText.value.trim()) other.input.checked = true; });
    const notes = el('details', { class: 'notes' }, el('summary', { text: 'Notes' }));
    const qn = textInput({ id: nextId('n'), maxlength: '2000' });
    notes.append(el('label', { for: qn.id, class: 'field-label', text: 'Note on the question' }), qn);
    const optNotes = q.options.map((o) => {
      const t = textInput({ id: nextId('n'), maxlength: '2000' });
      notes.append(el('label', { for: t.id, class: 'field-label', text: `Note on “${o.label}”` }), t);
      return t;
    });
    const otherNote = textInput({ id: nextId('n'), maxlength: '2000' });
    notes.append(el('label', { for: otherNote.id, class: 'field-label', text: 'Note on Other' }), otherNote);
    fs.append(notes, slot);
    // A multi-select may be answered with nothing chosen, as in the
    // dialog, where it takes Enter twice: here, sending twice.
    let emptyOk = false;
    fs.addEventListener('change', () => { emptyOk = false; });
    const read = () => {
      const picks = [];
      q.options.forEach((o, j) => { if (boxes[j].checked) picks.push({ optionId: o.id, label: o.label }); });
      if (other.input.checked) {
        const text = otherText.value.trim();
        if (!text) return { problem: 'Write your Other answer, or choose an option.', ctl: otherText };
        picks.push({ label: 'Other', other: true, text });
      }
      const out = {};
      if (picks.length || !required) {
        if (q.multiSelect) {
          if (picks.length || required) out.answer = { kind: 'multi', selections: picks, empty: picks.length === 0 };
        } else if (picks.length) {
          out.answer = Object.assign({ kind: 'single' }, picks[0]);
        }
      } else if (q.multiSelect && emptyOk) {
        out.answer = { kind: 'multi', selections: [], empty: true };
      } else if (q.multiSelect) {
        emptyOk = true;
        return { problem: 'Nothing is chosen: choose options, or send again to answer with none.', ctl: boxes[0] };
      } else {
        return { problem: 'Choose an option.', ctl: boxes[0] };
      }
      const ann = {};
      if (qn.value.trim()) ann.questionNotes = qn.value.trim();
      const on = {};
      q.options.forEach((o, j) => { if (optNotes[j].value.trim()) on[o.id] = optNotes[j].value.trim(); });
      if (otherNote.value.trim()) on.$other = otherNote.value.trim();
      if (Object.keys(on).length) ann.optionNotes = on;
      if (!q.multiSelect && out.answer && !out.answer.other) {
        const o = q.options.find((x) => x.id === out.answer.optionId);
        if (o && o.preview) ann.selectedPreview = o.preview;
      }
      if (Object.keys(ann).length) out.annotations = ann;
      return out;
    };
    return { node: fs, slot, read };
  }

  function buildForm(d) {
    const req = JSON.parse(JSON.stringify(d.request));
    const auq = d.contract === 'AskUserQuestion';
    const titleId = nextId('t');
    const form = el('form', { class: 'questionnaire', novalidate: true, 'aria-labelledby': titleId });
    form.summary = d;
    const mark = approvalMark(d);
    if (mark) form.append(mark);
    form.append(el('h2', { id: titleId, text: (!auq && req.header) || d.title || 'Question' }));
    form.append(el('p', { class: 'meta', text: metaLine(d) }));
    const stop = el('button', { type: 'button', class: 'secondary', text: 'Stop countdown' });
    const cd = el('p', { class: 'countdown' }, el('span', { class: 'left', text: timeLeft(d) }), ' ', stop);
    cd.summary = d;
    form.append(cd);
    stop.hidden = !d.deadline || !!d.stoppedBy;
    const top = el('p', { class: 'problem top', role: 'alert', hidden: true });
    form.append(top);
    const qs = req.questions.map((q, i) => (auq ? auqQuestion(d, req, q, i) : askUserQuestion(d, req, q, i)));
    for (const q of qs) {
      form.append(q.node);
      // A problem goes once the person changes its answer.
      const clear = () => {
        for (const p of q.node.querySelectorAll('.problem')) p.hidden = true;
        for (const c of q.node.querySelectorAll('[aria-invalid]')) c.removeAttribute('aria-invalid');
      };
      q.node.addEventListener('change', clear);
      q.node.addEventListener('input', clear);
    }
    const send = el('button', { type: 'submit', class: 'primary', text: 'Send answer' });
    const dismiss = el('button', { type: 'button', class: 'secondary', text: 'Dismiss' });
    form.append(el('div', { class: 'actions' }, send, dismiss));
    const say = (msg) => { top.textContent = msg; top.hidden = !msg; };
    stop.addEventListener('click', async () => {
      const r = await post('/api/stop', d.id);
      if (!r.ok) { say(r.text); return; }
      const s = state.items.get(d.id) || d;
      s.stoppedBy = s.stoppedBy || 'this page';
      updateCountdown();
      cd.querySelector('.left').focus();
    });
    cd.querySelector('.left').tabIndex = -1;
    dismiss.addEventListener('click', async () => {
      const r = await post('/api/dismiss', d.id);
      if (!r.ok) { say(r.text); return; }
      formClosed(r.text);
    });
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      say('');
      let first = null;
      const answers = auq ? {} : [];
      const annotations = {};
      qs.forEach((q, i) => {
        const r = q.read();
        if (!r.silent) showProblem(q.slot, r.ctl, r.problem);
        if (r.problem) { if (!first) first = r.ctl || q.node; return; }
        if (auq) {
          const id = req.questions[i].id;
          if (r.answer) answers[id] = r.answer;
          if (r.annotations) annotations[id] = r.annotations;
        } else {
          answers.push(r.answer);
        }
      });
      if (first) {
        say('Some answers need attention; each problem is shown beside its question.');
        first.focus();
        return;
      }
      let body;
      if (auq) {
        body = { cancelled: false, answers };
        if (Object.keys(annotations).length) body.annotations = annotations;
        const m = req.metadata;
        if (m && (m.source !== undefined || m.flowId !== undefined)) {
          body.metadata = {};
          if (m.source !== undefined) body.metadata.source = m.source;
          if (m.flowId !== undefined) body.metadata.flowId = m.flowId;
        }
      } else {
        body = { status: 'answered', answers };
      }
      send.disabled = true;
      const r = await post('/api/answer', d.id, JSON.stringify(body));
      send.disabled = false;
      if (!r.ok) { say(r.text); top.focus(); return; }
      formClosed(r.text);
    });
    top.tabIndex = -1;
    return form;
  }

  $('more').addEventListener('click', () => {
    const first = state.order.length > state.shown ? state.order[state.shown] : null;
    state.shown += PAGE;
    renderList();
    const li = first && state.rows.get(first);
    if (li) li.querySelector('a').focus();
  });
  $('back').addEventListener('click', () => {
    if (location.hash) history.pushState(null, '', location.pathname);
    showList();
  });
  window.addEventListener('hashchange', route);
  connect();
})();
