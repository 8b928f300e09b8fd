/* global document, confirm, Node */
// The sandbox dashboard: plain DOM, no build step. Every change goes through /dashboard/api with the
// X-Sandbox-Dashboard header. Values from the server are placed with textContent, never as HTML.
const API = '/dashboard/api';
let selectedMerchant = null;
let lastSnapshot = { merchants: '', transactions: '', deliveries: '' };

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
    else if (k === 'text') node.textContent = v;
    else node.setAttribute(k, v === true ? '' : String(v));
  }
  for (const child of children) node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  return node;
}

function say(message, isError = false) {
  const status = document.getElementById('status');
  status.textContent = message;
  status.className = isError ? 'bad' : '';
}

async function get(path) {
  const res = await fetch(API + path, { cache: 'no-store' });
  if (!res.ok) throw new Error(`${path}: HTTP ${res.status}`);
  return (await res.json()).data;
}

async function post(path, body) {
  const res = await fetch(API + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-sandbox-dashboard': '1' },
    body: JSON.stringify(body ?? {}),
  });
  const json = await res.json();
  if (!res.ok) throw new Error(json.error ? `${json.error.code}: ${json.error.message}` : `HTTP ${res.status}`);
  return json.data;
}

const STATUS_LABELS = { PENDING_REVIEW: 'Pending review', APPROVED: 'Approved', SUSPENDED: 'Suspended', REJECTED: 'Rejected' };
const time = (iso) => (iso ? new Date(iso).toLocaleTimeString() : '—');

function renderMerchants(merchants) {
  const body = document.querySelector('#merchants tbody');
  body.replaceChildren();
  if (!selectedMerchant && merchants[0]) selectedMerchant = merchants[0].id;
  for (const m of merchants) {
    const select = el('select', { 'aria-label': `Status of ${m.id}`, 'data-status-for': m.id });
    for (const [value, label] of Object.entries(STATUS_LABELS)) {
      select.append(el('option', { value, selected: value === m.status, text: label }));
    }
    const row = el(
      'tr',
      { class: m.id === selectedMerchant ? 'selected' : undefined, 'data-merchant': m.id },
      el('td', {}, el('code', { text: m.id })),
      el('td', { text: m.name + (m.isDemo ? ' (demo)' : '') }),
      el('td', { text: STATUS_LABELS[m.status] }),
      el(
        'td',
        {},
        select,
        ' ',
        el('button', {
          type: 'button',
          text: 'Apply',
          onclick: () => act(() => post(`/merchants/${m.id}/status`, { status: select.value }), `Status of ${m.id} set`),
        }),
      ),
      el(
        'td',
        {},
        el('button', {
          type: 'button',
          text: 'Keys',
          onclick: () => {
            selectedMerchant = m.id;
            refresh(true);
          },
        }),
      ),
    );
    body.append(row);
  }
  const merchant = merchants.find((m) => m.id === selectedMerchant);
  document.getElementById('keys-merchant').textContent = merchant ? `${merchant.name} (${merchant.id})` : '—';
  const keys = document.querySelector('#keys tbody');
  keys.replaceChildren();
  for (const k of merchant ? merchant.keys : []) {
    keys.append(
      el(
        'tr',
        { 'data-key': k.publicId },
        el('td', {}, el('code', { text: k.publicId })),
        el('td', { text: k.environment }),
        el('td', {}, el('code', { text: k.secretHint })),
        el('td', { text: time(k.createdAt) }),
        el('td', { class: k.revokedAt ? 'bad' : 'ok', text: k.revokedAt ? `Revoked ${time(k.revokedAt)}` : 'Active' }),
        el(
          'td',
          {},
          k.revokedAt
            ? ''
            : el('button', {
                type: 'button',
                'data-action': 'revoke',
                'aria-label': `Revoke ${k.publicId}`,
                text: 'Revoke',
                onclick: () => {
                  if (!confirm(`Revoke ${k.publicId}? Requests using it will be refused at once.`)) return;
                  act(() => post(`/keys/${k.publicId}/revoke`), `${k.publicId} revoked`);
                },
              }),
        ),
      ),
    );
  }
}

function renderTransactions(transactions) {
  const body = document.querySelector('#transactions tbody');
  body.replaceChildren();
  for (const t of transactions) {
    const actions = el('td');
    if (t.awaitingTester) {
      actions.append(
        el('button', {
          type: 'button',
          'data-action': 'authorise',
          text: 'Authorise',
          onclick: () => act(() => post(`/transactions/${t.reference}/authorise`), `${t.reference} authorised`),
        }),
        ' ',
        el('button', {
          type: 'button',
          'data-action': 'decline',
          text: 'Decline',
          onclick: () => act(() => post(`/transactions/${t.reference}/decline`), `${t.reference} declined`),
        }),
      );
    }
    body.append(
      el(
        'tr',
        { 'data-reference': t.reference },
        el('td', {}, el('code', { text: t.reference })),
        el('td', { text: t.environment }),
        el('td', { text: `GHS ${t.amount}` }),
        el('td', { text: `${t.msisdn} ${t.network}${t.customerName ? ` (${t.customerName})` : ''}` }),
        el('td', {
          class: t.status === 'SUCCESS' ? 'ok' : t.status === 'FAILED' ? 'bad' : '',
          text: t.status + (t.failureReason ? ` (${t.failureReason})` : ''),
        }),
        el('td', { text: t.networkReports }),
        el('td', { text: time(t.createdAt) }),
        actions,
      ),
    );
  }
}

function renderDeliveries(deliveries) {
  const box = document.getElementById('deliveries');
  box.replaceChildren();
  if (deliveries.length === 0) box.append(el('p', { text: 'No deliveries yet.' }));
  for (const d of deliveries) {
    const attempts = el('tbody');
    for (const a of d.attempts) {
      attempts.append(
        el(
          'tr',
          { 'data-attempt': a.attemptNo },
          el('td', { text: a.attemptNo + (a.manual ? ' (replay)' : '') }),
          el('td', { text: time(a.startedAt) }),
          el('td', { class: a.ok ? 'ok' : 'bad', text: a.statusCode ?? a.error ?? '' }),
          el('td', { text: `${a.durationMs} ms` }),
        ),
      );
    }
    box.append(
      el(
        'div',
        { class: 'delivery', 'data-delivery-id': d.id, 'data-delivery-status': d.status },
        el('h3', {}, el('code', { text: d.reference }), ` → ${d.callbackUrl} · ${d.status}`),
        el('p', { text: `Signed by ${d.keyId}. ${d.nextAttemptAt ? `Next attempt ${time(d.nextAttemptAt)}.` : ''}` }),
        el(
          'table',
          {},
          el(
            'thead',
            {},
            el(
              'tr',
              {},
              el('th', { text: 'Attempt' }),
              el('th', { text: 'Time' }),
              el('th', { text: 'Status code or error' }),
              el('th', { text: 'Duration' }),
            ),
          ),
          attempts,
        ),
        el('button', {
          type: 'button',
          'data-action': 'replay',
          text: 'Replay',
          onclick: () => act(() => post(`/deliveries/${d.id}/replay`), `Delivery ${d.id} replayed`),
        }),
      ),
    );
  }
}

async function act(fn, done) {
  try {
    await fn();
    say(done);
  } catch (error) {
    say(error.message, true);
  }
  await refresh(true);
}

async function refresh(force = false) {
  try {
    const [merchants, transactions, deliveries] = await Promise.all([get('/merchants'), get('/transactions'), get('/deliveries')]);
    const snap = {
      merchants: JSON.stringify([merchants, selectedMerchant]),
      transactions: JSON.stringify(transactions),
      deliveries: JSON.stringify(deliveries),
    };
    // Re-render only what changed, so a half-chosen status menu is not reset under the user's hand.
    if (force || snap.merchants !== lastSnapshot.merchants) renderMerchants(merchants);
    if (force || snap.transactions !== lastSnapshot.transactions) renderTransactions(transactions);
    if (force || snap.deliveries !== lastSnapshot.deliveries) renderDeliveries(deliveries);
    lastSnapshot = snap;
  } catch (error) {
    say(`Could not load: ${error.message}`, true);
  }
}

async function createKey(environment) {
  if (!selectedMerchant) return;
  try {
    const key = await post(`/merchants/${selectedMerchant}/keys`, { environment });
    document.getElementById('new-secret-public').textContent = key.publicId;
    document.getElementById('new-secret-value').textContent = key.secret;
    document.getElementById('new-secret').hidden = false;
    say(`${key.publicId} created`);
  } catch (error) {
    say(error.message, true);
  }
  await refresh(true);
}

document.getElementById('create-test-key').addEventListener('click', () => createKey('test'));
document.getElementById('create-live-key').addEventListener('click', () => createKey('live'));
document.getElementById('new-secret-dismiss').addEventListener('click', () => {
  document.getElementById('new-secret-value').textContent = '';
  document.getElementById('new-secret').hidden = true;
});
document.getElementById('new-merchant').addEventListener('submit', (event) => {
  event.preventDefault();
  const form = event.currentTarget;
  const name = new FormData(form).get('name');
  act(async () => {
    const m = await post('/merchants', { name });
    selectedMerchant = m.id;
    form.reset();
  }, 'Merchant created');
});

refresh(true);
setInterval(() => refresh(false), 1000);
