// The owner's phone page. Plain JavaScript, no framework, nothing from another site.
// The link's one-time invitation arrives in the URL fragment (never sent to a server, never in a
// Referer); it is exchanged once for this phone's own credential, an HttpOnly cookie, and wiped from the
// address bar. A copy of the link (history, a screenshot) is spent by then and opens nothing. Figures always come
// from the relay's summary (never added up here), so a reconnect can never count a payment twice; the
// latest payments are kept by sequence number, so a replayed one replaces itself.

const $ = (id) => document.getElementById(id);
const state = { link: null, today: null, day: null, latest: new Map(), cursor: 0, source: null, lastUpdated: null };

const money = (pesewas) => {
  const sign = pesewas < 0 ? '-' : '';
  const abs = Math.abs(pesewas);
  const cedis = String(Math.floor(abs / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${sign}GH₵ ${cedis}.${String(abs % 100).padStart(2, '0')}`;
};
const clock = (iso) =>
  new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', timeZone: state.link.timeZone }).format(new Date(iso));

function el(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}

function showGone(message) {
  if (state.source) state.source.close();
  state.source = null;
  $('view').hidden = true;
  $('gone').hidden = false;
  $('gone-title').textContent = message;
  $('status').textContent = '';
  document.title = 'Link turned off';
}

// The shop's relay access is suspended: the figures stay as last shown, the status says why, and the page
// comes back by itself once the relay's operator resumes the shop.
let suspendedTimer = null;
function showSuspended(message) {
  if (state.source) state.source.close();
  state.source = null;
  $('status').classList.add('offline');
  $('status').textContent = message;
  if (suspendedTimer) return;
  suspendedTimer = setInterval(async () => {
    const res = await fetch('/v1/owner/summary', { credentials: 'same-origin', cache: 'no-store' }).catch(() => null);
    if (res?.ok) location.reload();
    else if (res?.status === 401) {
      clearInterval(suspendedTimer);
      const body = await res.json().catch(() => ({}));
      showGone(body?.error?.message ?? 'This link is not valid');
    }
  }, 5000);
}

async function api(path, options) {
  const res = await fetch(path, { credentials: 'same-origin', cache: 'no-store', ...options });
  if (res.status === 403) {
    const body = await res.json().catch(() => ({}));
    if (body?.error?.suspended) {
      showSuspended(body.error.message);
      throw new Error('gone');
    }
  }
  if (res.status === 401) {
    const body = await res.json().catch(() => ({}));
    const message = body?.error?.message ?? 'This link is not valid';
    showGone(message);
    throw new Error('gone');
  }
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  return res.json();
}

function renderFigures(day) {
  const t = day.totals;
  const rows = [
    ['Takings (gross)', money(t.gross)],
    ['Fees', money(t.fees)],
    ['Net', money(t.net)],
    ['Payments', `${t.succeeded} paid, ${t.failed} failed`],
    // One decimal, as the till's Takings writes it (100.0%, 66.7%).
    ['Success rate', t.successRate === null ? '—' : `${t.successRate.toFixed(1)}%`],
  ];
  const dl = $('figures');
  dl.replaceChildren();
  for (const [name, value] of rows) {
    const div = el('div');
    div.append(el('dt', name), el('dd', value));
    div.dataset.figure = name;
    dl.append(div);
  }
}

function renderGroups(id, groups, unknown) {
  const table = $(id);
  table.replaceChildren();
  const head = el('tr');
  head.append(el('th', 'Name'), el('th', 'Paid', 'num'), el('th', 'Takings', 'num'));
  for (const th of head.children) th.scope = 'col';
  table.append(el('thead'));
  table.tHead.append(head);
  const body = el('tbody');
  for (const g of groups) {
    const tr = el('tr');
    const name = el('td');
    name.append(el('bdi', g.name || unknown));
    tr.append(name, el('td', String(g.succeeded), 'num'), el('td', money(g.gross), 'num'));
    body.append(tr);
  }
  if (groups.length === 0) {
    const tr = el('tr');
    const td = el('td', 'Nothing yet.');
    td.colSpan = 3;
    tr.append(td);
    body.append(tr);
  }
  table.append(body);
}

function renderLatest() {
  const list = $('latest');
  list.replaceChildren();
  const items = [...state.latest.values()].sort((a, b) => b.seq - a.seq).slice(0, 20);
  for (const p of items) {
    const li = el('li');
    li.dataset.seq = String(p.seq);
    const paid = p.status === 'SUCCESS';
    li.append(el('span', `${clock(p.completedAt)} · ${paid ? 'Paid' : 'Failed'}`, paid ? 'ok' : 'failed'));
    li.append(el('span', money(p.amount), 'amount'));
    const who = [p.till, p.cashier, p.network, p.number].filter(Boolean).join(' · ');
    const detail = el('span', undefined, 'detail');
    detail.append(el('bdi', who));
    li.append(detail);
    if (p.description) {
      const d = el('span', undefined, 'description');
      d.append(el('bdi', p.description));
      li.append(d);
    }
    list.append(li);
  }
  $('latest-empty').hidden = items.length > 0;
}

function renderDay(data) {
  const isToday = data.day.date === data.today;
  $('day-title').textContent = isToday ? 'Today' : new Date(`${data.day.date}T12:00:00Z`).toDateString();
  $('day').value = data.day.date;
  $('day').max = data.today;
  $('latest-card').hidden = !isToday;
  renderFigures(data.day);
  renderGroups('by-till', data.day.byTill, 'Unknown till');
  renderGroups('by-cashier', data.day.byCashier, 'No cashier named');
  renderGroups('by-network', data.day.byNetwork, 'Unknown network');
}

async function renderDays() {
  const data = await api('/v1/owner/days');
  const chart = $('chart');
  chart.replaceChildren();
  const max = Math.max(1, ...data.days.map((d) => d.gross));
  for (const d of data.days) {
    const li = el('li');
    if (d.date === data.today) li.className = 'today';
    li.title = `${d.date}: ${money(d.gross)}`;
    li.setAttribute('aria-label', `${d.date}: ${money(d.gross)}, ${d.succeeded} paid`);
    const bar = el('span', undefined, 'bar');
    bar.style.height = `${Math.round((d.gross / max) * 100)}%`;
    li.append(bar);
    chart.append(li);
  }
}

function updated() {
  state.lastUpdated = new Date().toISOString();
  $('status').classList.remove('offline');
  $('status').textContent = `Live · updated ${clock(state.lastUpdated)}`;
}

async function loadDay(date) {
  const query = date && date !== state.today ? `?date=${encodeURIComponent(date)}` : '';
  const data = await api(`/v1/owner/summary${query}`);
  state.link = data.link;
  state.today = data.today;
  state.day = data.day.date;
  if (data.day.date === data.today) for (const p of data.latest) state.latest.set(p.seq, p);
  renderDay(data);
  renderLatest();
  return data;
}

let refreshTimer = null;
function refreshSoon() {
  if (refreshTimer) return;
  refreshTimer = setTimeout(() => {
    refreshTimer = null;
    if (state.day === state.today) loadDay(state.today).then(updated, () => undefined);
  }, 150);
}

function connect() {
  const source = new EventSource(`/v1/owner/stream?after=${state.cursor}`);
  state.source = source;
  source.addEventListener('open', updated);
  source.addEventListener('payment', (e) => {
    const p = JSON.parse(e.data);
    state.cursor = Math.max(state.cursor, p.seq);
    state.latest.set(p.seq, p);
    renderLatest();
    refreshSoon();
  });
  source.addEventListener('revoked', (e) => showGone(JSON.parse(e.data).message));
  source.addEventListener('suspended', (e) => showSuspended(JSON.parse(e.data).message));
  source.addEventListener('error', () => {
    if (state.source !== source) return;
    $('status').classList.add('offline');
    $('status').textContent = state.lastUpdated ? `Offline · last updated ${clock(state.lastUpdated)} · reconnecting…` : 'Reconnecting…';
    // The browser retries by itself (sending Last-Event-ID); when the relay refuses outright, start again.
    if (source.readyState === EventSource.CLOSED) {
      setTimeout(
        () =>
          api('/v1/owner/summary').then(
            () => state.source === source && connect(),
            (err) => err.message !== 'gone' && setTimeout(connect, 3000),
          ),
        2000,
      );
    } else {
      api('/v1/owner/summary').catch(() => undefined);
    }
  });
  source.addEventListener('open', refreshSoon);
}

// Hands the invitation over for this phone's cookie. A relay holding back this client's sign-ins (too many
// unknown links tried from its address) answers 429 before looking at the invitation, so it is not spent: the
// page says so, waits the Retry-After and hands it over again by itself. The invitation is already out of the
// address bar, so a reload could not.
async function signIn(token) {
  for (;;) {
    const res = await fetch('/v1/owner/session', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token }),
    });
    if (res.status !== 429) {
      $('status').classList.remove('offline');
      return res;
    }
    const body = await res.json().catch(() => ({}));
    const seconds = Math.min(60, Math.max(1, Math.ceil(Number(res.headers.get('retry-after')) || 5)));
    $('status').classList.add('offline');
    $('status').textContent = `${body?.error?.message ?? 'The relay is busy'}. Trying again by itself in ${seconds} s…`;
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    $('status').textContent = 'Connecting…';
  }
}

async function start() {
  const match = /^#t=(ov_[A-Za-z0-9_-]{43})$/.exec(location.hash);
  if (match) {
    history.replaceState(null, '', location.pathname);
    const res = await signIn(match[1]);
    if (!res.ok) {
      const body = await res.json().catch(() => ({}));
      return showGone(body?.error?.message ?? 'This link is not valid');
    }
  }
  const data = await loadDay();
  // The figures on screen are as of this load: if the stream drops before it ever opens, the page still says
  // when it was last updated, not only "Reconnecting…".
  state.lastUpdated = new Date().toISOString();
  state.link = data.link;
  state.cursor = data.lastSeq;
  $('title').textContent = `Takings · ${data.link.label}`;
  $('sandbox').hidden = data.link.environment !== 'test';
  $('view').hidden = false;
  renderDay(data);
  renderLatest();
  await renderDays();
  connect();
  $('day').addEventListener('change', () => $('day').value && loadDay($('day').value).catch(() => undefined));
  $('today').addEventListener('click', () => loadDay(state.today).catch(() => undefined));
}

start().catch((err) => {
  if (err.message !== 'gone') $('status').textContent = 'The relay cannot be reached. Pull down to try again.';
});
