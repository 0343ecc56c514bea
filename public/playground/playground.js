// The playground: a page of the service that calls its own /v1 API from the browser. The
// key lives only in sessionStorage (gone when the tab closes); nothing else is stored.
const KEY_STORAGE = 'translate-service.api-key';
const $ = (id) => document.getElementById(id);
const languages = new Map(); // code → { name, rtl }

function key() {
  return $('key').value.trim();
}

async function api(method, path, body) {
  const headers = { accept: 'application/json' };
  if (key()) headers.authorization = `Bearer ${key()}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const answer = await response.json().catch(() => ({ error: 'server_error', message: `answer ${response.status} is not JSON` }));
  if (!response.ok) throw Object.assign(new Error(answer.message), { code: answer.error, status: response.status });
  return answer;
}

function say(text, isError = false) {
  $('status').textContent = text;
  $('status').classList.toggle('error', isError);
}

async function loadLanguages() {
  const { languages: list } = await api('GET', '/v1/languages');
  const box = $('targets');
  box.replaceChildren();
  for (const language of list) {
    languages.set(language.code, language);
    const label = document.createElement('label');
    const box2 = document.createElement('input');
    box2.type = 'checkbox';
    box2.value = language.code;
    box2.name = 'target';
    box2.addEventListener('change', countTargets);
    label.append(box2, ` ${language.code} — ${language.name}`);
    label.title = language.name + (language.rtl ? ' (right to left)' : '');
    box.append(label);
  }
  for (const code of ['fr', 'de']) box.querySelector(`input[value="${code}"]`).checked = true;
  countTargets();
}

function chosenTargets() {
  return [...document.querySelectorAll('input[name="target"]:checked')].map((input) => input.value);
}

function countTargets() {
  $('target-count').textContent = `(${chosenTargets().length} of at most 36)`;
}

async function refreshUsage() {
  if (!key()) return void ($('usage').hidden = true);
  try {
    const usage = await api('GET', '/v1/usage');
    const used = usage.tokens_used;
    const included = usage.tokens_included;
    const share = included === null ? 0 : included === 0 ? 1 : Math.min(1, used / included);
    $('usage-bar').style.width = `${(share * 100).toFixed(1)}%`;
    $('usage-bar').classList.toggle('over', included !== null && used > included);
    $('usage-bar').parentElement.setAttribute('aria-valuenow', String(Math.round(share * 100)));
    $('usage-text').textContent =
      included === null
        ? `${usage.tier}: ${used.toLocaleString('en')} tokens this month (no monthly limit)`
        : `${usage.tier}: ${used.toLocaleString('en')} of ${included.toLocaleString('en')} tokens this month`;
    $('usage').hidden = false;
  } catch (error) {
    $('usage').hidden = true;
    say(`${error.code}: ${error.message}`, true);
  }
}

// One column per requested target, in request order, filled as each target's document
// arrives on the stream (POST /v1/translate with Accept: text/event-stream).
function showColumns(content, targets) {
  const columns = [['source', content], ...targets.map((code) => [code, undefined])];
  $('results').replaceChildren(
    ...columns.map(([code, text]) => {
      const column = document.createElement('article');
      column.className = code === 'source' ? 'column' : 'column pending';
      column.dataset.target = code;
      const title = document.createElement('h2');
      title.textContent = code === 'source' ? 'Source' : `${code} — ${languages.get(code)?.name ?? code}`;
      const body = document.createElement('pre');
      body.textContent = text ?? 'translating…';
      if (code !== 'source') body.lang = code;
      column.append(title, body);
      return column;
    }),
  );
}

function showTranslation(code, text) {
  const column = $('results').querySelector(`.column[data-target="${CSS.escape(code)}"]`);
  if (!column) return;
  const body = column.querySelector('pre');
  body.textContent = text;
  if (languages.get(code)?.rtl) body.dir = 'rtl';
  column.classList.remove('pending');
}

// The events of a text/event-stream answer as they arrive: { event, data } with data parsed.
async function* serverEvents(response) {
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const lines = buffer.slice(0, end).split('\n');
      buffer = buffer.slice(end + 2);
      const event = lines.find((line) => line.startsWith('event: '))?.slice(7);
      const data = lines.find((line) => line.startsWith('data: '))?.slice(6);
      if (event && data !== undefined) yield { event, data: JSON.parse(data) };
    }
  }
}

async function streamTranslation(body) {
  const response = await fetch('/v1/translate', {
    method: 'POST',
    headers: { accept: 'text/event-stream', authorization: `Bearer ${key()}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) {
    const answer = await response.json().catch(() => ({ error: 'server_error', message: `answer ${response.status} is not JSON` }));
    throw Object.assign(new Error(answer.message), { code: answer.error, status: response.status });
  }
  return serverEvents(response);
}

async function translate() {
  const content = $('content').value;
  const targets = chosenTargets();
  if (!key()) return say('Type an API key first.', true);
  if (!content) return say('Paste or drop some text first.', true);
  if (targets.length === 0) return say('Pick at least one target.', true);
  const format = $('format').value;
  $('translate').disabled = true;
  say('Translating…');
  try {
    const events = await streamTranslation({ content, targets, ...(format ? { format } : {}) });
    showColumns(content, targets);
    let arrived = 0;
    let usage;
    for await (const { event, data } of events) {
      if (event === 'translation') {
        showTranslation(data.target, data.text);
        say(`Translating… ${++arrived} of ${targets.length} targets done.`);
      } else if (event === 'usage') usage = data;
      else if (event === 'error') throw Object.assign(new Error(data.message), { code: data.error });
    }
    if (!usage) throw Object.assign(new Error('the answer ended before it was complete'), { code: 'server_error' });
    $('detected').textContent = usage.detected_format
      ? `Detected format: ${usage.detected_format} (confidence ${usage.detection_confidence.toFixed(2)})`
      : `Format: ${format}`;
    say(`Done: ${usage.total_tokens.toLocaleString('en')} tokens (${usage.model}).`);
    await refreshUsage();
  } catch (error) {
    say(`${error.code ?? 'error'}: ${error.message}`, true);
  } finally {
    $('translate').disabled = false;
  }
}

async function readFile(file) {
  $('content').value = await file.text();
  $('detected').textContent = `Loaded ${file.name} (${file.size.toLocaleString('en')} bytes).`;
}

function wireDrop() {
  const zone = $('drop');
  zone.addEventListener('dragover', (event) => {
    event.preventDefault();
    zone.classList.add('over');
  });
  zone.addEventListener('dragleave', () => zone.classList.remove('over'));
  zone.addEventListener('drop', (event) => {
    event.preventDefault();
    zone.classList.remove('over');
    const file = event.dataTransfer?.files?.[0];
    if (file) void readFile(file);
  });
  $('file').addEventListener('change', () => {
    const file = $('file').files?.[0];
    if (file) void readFile(file);
  });
}

function wireKey() {
  $('key').value = sessionStorage.getItem(KEY_STORAGE) ?? '';
  $('key').addEventListener('change', () => {
    if (key()) sessionStorage.setItem(KEY_STORAGE, key());
    else sessionStorage.removeItem(KEY_STORAGE);
    void refreshUsage();
  });
}

wireKey();
wireDrop();
$('translate').addEventListener('click', () => void translate());
loadLanguages().catch((error) => say(`languages could not be loaded: ${error.message}`, true));
void refreshUsage();
