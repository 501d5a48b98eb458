// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

// The web board's script: shows times in the reader's zone and, on a board
// page, keeps the page up to date from the server's events. It builds every
// element with createElement and textContent, never from markup, so user
// text is always shown as text. It mirrors the markup of
// src/transport/web/page.rs, including what toolset team adds: the goal's
// done-when condition, and on cards the holder and lease end, the tasks a
// card waits for, and the evidence of its outcome.

'use strict';

(() => {
  const LABELS = {
    pending: 'pending',
    in_progress: 'in progress',
    completed: 'completed',
    failed: 'failed',
    cancelled: 'cancelled',
    awaiting_review: 'awaiting review',
  };
  const GLYPHS = {
    pending: '☐',
    in_progress: '⟳',
    completed: '☑',
    failed: '☒',
    cancelled: '⊗',
    awaiting_review: '⧗',
  };
  // How many status changes "Recent activity" lists (as page.rs).
  const ACTIVITY_SHOWN = 20;
  // How long to wait before reopening a stream that the browser gave up on.
  const REOPEN_MS = 3000;
  // How often the page looks for dispatches whose time ran out.
  const STALL_CHECK_MS = 5000;

  const byId = (id) => document.getElementById(id);

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function localise(time) {
    const date = new Date(time.dateTime);
    if (Number.isNaN(date.getTime())) return;
    time.textContent = date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
    time.title = time.dateTime;
  }

  function timeOf(iso) {
    const time = el('time', '', iso);
    time.dateTime = iso;
    localise(time);
    return time;
  }

  function glyph(status) {
    const node = el('span', 'glyph', GLYPHS[status] || '?');
    node.setAttribute('role', 'img');
    node.setAttribute('aria-label', LABELS[status] || status);
    return node;
  }

  function quote(text) {
    return el('q', '', text);
  }

  function evidence(found) {
    const line = el('p', 'evidence', 'Evidence: ');
    const parts = [];
    if (found.command !== undefined) {
      const exit = found.exit_code !== undefined ? ' → exit ' + found.exit_code : '';
      parts.push([el('code', '', found.command), exit]);
    }
    if (found.commit !== undefined) parts.push(['commit ', el('code', '', found.commit)]);
    if (found.url !== undefined) {
      if (/^https?:\/\//.test(found.url)) {
        const link = el('a', '', found.url);
        link.href = found.url;
        link.rel = 'noopener noreferrer';
        parts.push([link]);
      } else {
        parts.push([found.url]);
      }
    }
    if (found.note !== undefined) parts.push([found.note]);
    parts.forEach((part, n) => {
      if (n > 0) line.append(' · ');
      line.append(...part);
    });
    line.append(' ', el('span', 'by', '(' + found.by + ')'));
    return line;
  }

  // What a dispatch line says in each state, as page.rs writes it.
  function dispatchWhat(state, claimed) {
    if (state === 'stalled') return claimed ? 'Stalled: lease ended' : 'Stalled: not claimed by';
    return claimed ? 'In flight: lease to' : 'Dispatched: claim by';
  }

  function dispatchLine(dispatch) {
    const line = el('p', 'dispatch');
    line.dataset.state = dispatch.state;
    line.dataset.until = dispatch.until;
    line.dataset.claimed = String(dispatch.claimed);
    line.append(el('b', 'worker', dispatch.worker));
    if (dispatch.place !== undefined) line.append(' in ', el('code', '', dispatch.place));
    line.append(' (by ' + dispatch.by + ') · ');
    line.append(el('span', 'what', dispatchWhat(dispatch.state, dispatch.claimed)), ' ');
    line.append(timeOf(dispatch.until));
    return line;
  }

  // Turns the dispatch lines whose time ran out stalled, and counts them.
  function markStalls() {
    const now = Date.now();
    let turned = 0;
    for (const line of document.querySelectorAll('.dispatch[data-state="in_flight"]')) {
      const until = Date.parse(line.dataset.until);
      if (Number.isNaN(until) || until > now) continue;
      line.dataset.state = 'stalled';
      line.querySelector('.what').textContent = dispatchWhat('stalled', line.dataset.claimed === 'true');
      turned += 1;
    }
    if (turned === 0) return;
    const flight = document.querySelector('#dispatches .in-flight');
    const stalled = document.querySelector('#dispatches .stalled');
    if (!flight || !stalled) return;
    flight.textContent = String(Math.max(0, Number(flight.textContent) - turned));
    stalled.textContent = String(Number(stalled.textContent) + turned);
    stalled.dataset.n = stalled.textContent;
  }

  function card(task, statuses) {
    const item = el('li', 'card');
    item.id = 'task-' + task.id;
    item.dataset.taskId = task.id;
    item.tabIndex = 0;
    const meta = el('p', 'meta');
    meta.append(glyph(task.status), ' ', el('code', 'id', task.id));
    item.append(meta, el('h3', 'title', task.title));
    if (task.description) item.append(el('p', 'text', task.description));
    if (task.claim) {
      const claim = el('p', 'claim', 'Held by ');
      claim.append(el('b', 'holder', task.claim.holder), ' until ', timeOf(task.claim.until));
      item.append(claim);
    }
    if (task.dispatch) item.append(dispatchLine(task.dispatch));
    if (task.blocked_by && task.blocked_by.length) {
      const blocked = el('p', 'blocked', 'Waits for');
      for (const id of task.blocked_by) {
        const dep = el('span', 'dep');
        if (statuses[id]) dep.append(glyph(statuses[id]));
        dep.append(el('code', 'id', id));
        blocked.append(' ', dep);
      }
      item.append(blocked);
    }
    if (task.touches && task.touches.length) {
      const touches = el('p', 'touches', 'Touches');
      for (const pattern of task.touches) touches.append(' ', el('code', '', pattern));
      item.append(touches);
    }
    if (task.evidence) item.append(evidence(task.evidence));
    if (byId('writes')) {
      const edit = el('button', 'edit', 'Edit');
      edit.type = 'button';
      edit.dataset.taskId = task.id;
      item.append(edit);
    }
    return item;
  }

  // The store's state (as page.rs's push_store): whether it can be
  // reached, and a git board's sync. Absent from the JSON while all is well.
  function renderStore(state) {
    const section = byId('store');
    if (!section) return;
    const store = state.store || { state: 'ok', problem: null, sync: null };
    const sync = store.sync || { on: false, last_sync: null, offline: null, unpushed: null, set_aside: [] };
    section.dataset.state = store.state;
    const show = (id, text, prefix) => {
      const node = byId(id);
      node.hidden = !text;
      node.textContent = text ? prefix + text : '';
    };
    show('store-problem', store.problem, '');
    byId('store-stale').hidden = !store.problem;
    const last = byId('sync-last');
    last.hidden = !sync.on;
    last.querySelector('.at').replaceChildren(
      sync.last_sync ? timeOf(sync.last_sync) : 'not since the server started');
    show('sync-offline', sync.offline, 'Sync offline: ');
    show('sync-unpushed', sync.unpushed, 'Not pushed yet: ');
    const aside = byId('set-aside');
    aside.hidden = sync.set_aside.length === 0;
    aside.querySelector('.n').textContent = String(sync.set_aside.length);
    aside.querySelector('ol').replaceChildren(...sync.set_aside.map((line) => el('li', '', line)));
    section.hidden = !store.problem && !sync.on && !sync.offline && !sync.unpushed
      && sync.set_aside.length === 0;
  }

  function goalEntry(entry) {
    const item = el('li');
    item.append(timeOf(entry.at), ' ');
    if (entry.event === 'goal_set') {
      item.append('Goal set: ', quote(entry.goal.title));
    } else {
      item.append('Changed from ', quote(entry.from.title), ' to ', quote(entry.to.title), '. ');
      item.append(el('span', 'reason', 'Reason: ' + entry.reason));
    }
    return item;
  }

  const GOAL_EVENTS = ['goal_set', 'goal_changed'];

  function activityEntry(entry) {
    const item = el('li');
    item.append(timeOf(entry.at), ' ');
    if (entry.event === 'status_changed') {
      item.append(glyph(entry.to), ' ', el('code', 'id', entry.task_id));
      item.append(' ' + entry.title + ': ' + LABELS[entry.from] + ' → ' + LABELS[entry.to]);
    } else if (entry.event === 'claimed') {
      item.append(el('code', 'id', entry.task_id), ' ' + entry.title + ': claimed by ');
      item.append(entry.holder + ' until ', timeOf(entry.until));
    } else if (entry.event === 'claim_ended') {
      item.append(el('code', 'id', entry.task_id));
      item.append(' ' + entry.title + ': claim of ' + entry.holder + ' ended (');
      item.append(entry.reason.replace('_', ' ') + ')');
    } else if (entry.event === 'dispatched') {
      item.append(el('code', 'id', entry.task_id), ' ' + entry.title + ': dispatched to ');
      item.append(entry.worker + ' by ' + entry.by + ', to claim by ', timeOf(entry.until));
    } else if (entry.event === 'dispatch_ended') {
      item.append(el('code', 'id', entry.task_id));
      item.append(' ' + entry.title + ': dispatch to ' + entry.worker + ' ended (');
      item.append(entry.reason.replace('_', ' ') + ')');
    } else {
      item.append(el('code', 'id', entry.task_id));
      const n = (entry.dependents || []).length;
      item.append(' ' + entry.title + ': deleted; ' + n + ' task(s) no longer wait for it');
    }
    return item;
  }

  // The goal's done-when condition and whether it is met: present once
  // agents coordinate on the board (the JSON then has `team`).
  function renderTeam(state) {
    const team = state.team;
    let doneWhen = byId('done-when');
    if (!team) {
      if (doneWhen) doneWhen.hidden = true;
      const met = byId('goal-met');
      if (met) met.hidden = true;
      const dispatches = byId('dispatches');
      if (dispatches) dispatches.hidden = true;
      return;
    }
    if (!doneWhen) {
      doneWhen = el('p', 'text done-when');
      doneWhen.id = 'done-when';
      const met = el('p', 'met');
      met.id = 'goal-met';
      const dispatches = el('p', 'dispatches');
      dispatches.id = 'dispatches';
      byId('goal-description').after(doneWhen, met, dispatches);
    }
    doneWhen.replaceChildren('Done when: ', el('span', 'condition', team.done_when || ''));
    doneWhen.hidden = !team.done_when;
    const met = byId('goal-met');
    met.hidden = false;
    met.dataset.met = String(team.goal_met);
    met.replaceChildren(
      'Goal ' + (team.goal_met ? 'met' : 'not met') + ' · ',
      el('span', 'n', String(team.completed_with_evidence)),
      ' completed with evidence',
    );
    const dispatches = byId('dispatches');
    const stalled = el('span', 'stalled', String(team.stalled));
    stalled.dataset.n = String(team.stalled);
    dispatches.replaceChildren(
      el('span', 'in-flight', String(team.in_flight)),
      ' in flight · ',
      stalled,
      ' stalled',
    );
    dispatches.hidden = team.in_flight + team.stalled === 0;
  }

  function renderGoal(state) {
    const title = byId('goal-title');
    title.textContent = state.goal ? state.goal.title : 'No goal set yet';
    title.classList.toggle('unset', !state.goal);
    const description = byId('goal-description');
    description.textContent = state.goal ? state.goal.description : '';
    description.hidden = !description.textContent;
    const changes = (state.history || []).filter((e) => GOAL_EVENTS.includes(e.event));
    const history = byId('goal-history');
    history.hidden = changes.length === 0;
    history.querySelector('.n').textContent = String(changes.length);
    history.querySelector('ol').replaceChildren(...changes.reverse().map(goalEntry));
  }

  function renderProgress(state) {
    const { completed, total } = state.progress;
    const bar = byId('progress');
    bar.max = Math.max(total, 1);
    bar.value = completed;
    bar.textContent = (total ? Math.floor((completed * 100) / total) : 0) + '%';
    byId('progress-text').textContent = completed + ' of ' + total + ' completed';
    for (const item of document.querySelectorAll('.progress .counts li')) {
      item.querySelector('b').textContent = String(state.counts[item.dataset.status] ?? 0);
    }
  }

  function renderColumns(state) {
    const focused = document.activeElement && document.activeElement.dataset.taskId;
    const statuses = Object.fromEntries(state.tasks.map((t) => [t.id, t.status]));
    for (const column of document.querySelectorAll('.column')) {
      const tasks = state.tasks.filter((t) => t.status === column.dataset.status);
      column.querySelector('.cards').replaceChildren(...tasks.map((t) => card(t, statuses)));
      column.querySelector('h2 .n').textContent = String(tasks.length);
      column.hidden = tasks.length === 0;
    }
    byId('no-tasks').hidden = state.tasks.length > 0;
    // Keep the keyboard where it was, also when its card moved column.
    const again = focused && byId('task-' + focused);
    if (again) again.focus({ preventScroll: true });
  }

  function renderActivity(state) {
    const changes = (state.history || []).filter((e) => !GOAL_EVENTS.includes(e.event));
    const activity = byId('activity');
    activity.hidden = changes.length === 0;
    const shown = changes.slice(-ACTIVITY_SHOWN).reverse();
    activity.querySelector('ol').replaceChildren(...shown.map(activityEntry));
  }

  function render(state) {
    renderStore(state);
    renderGoal(state);
    renderTeam(state);
    renderProgress(state);
    renderColumns(state);
    renderActivity(state);
    byId('changed-at').replaceChildren(state.changed_at ? timeOf(state.changed_at) : 'never');
    document.title = state.board + ' · planning board';
    markStalls();
  }

  function setLive(state, text) {
    const live = byId('live');
    if (live.dataset.state === state && live.textContent === text) return;
    live.dataset.state = state;
    live.textContent = text;
  }

  // EventSource reconnects by itself after a dropped connection (the server
  // sends `retry:`); if it gives up (e.g. an error status), open a new one.
  function connect(url) {
    const source = new EventSource(url);
    setLive('connecting', 'Connecting…');
    source.addEventListener('board', (event) => {
      let state;
      try {
        state = JSON.parse(event.data);
      } catch {
        return;
      }
      render(state);
      if (state.store && state.store.state === 'unreachable') {
        setLive('problem', state.store.problem);
      } else {
        setLive('live', 'Live');
      }
    });
    source.addEventListener('unavailable', (event) => {
      setLive('problem', 'The board cannot be read: ' + event.data);
    });
    source.addEventListener('error', () => {
      if (source.readyState === EventSource.CLOSED) {
        setLive('offline', 'Offline: retrying…');
        setTimeout(() => connect(url), REOPEN_MS);
      } else {
        setLive('connecting', 'Reconnecting…');
      }
    });
  }

  // Arrow keys move between cards: up and down in a column, left and right
  // across columns; Home and End go to a column's first and last card.
  function onKey(event) {
    const current = event.target.closest && event.target.closest('.card');
    if (!current || event.altKey || event.ctrlKey || event.metaKey) return;
    const cards = [...current.parentElement.children];
    const index = cards.indexOf(current);
    let next;
    if (event.key === 'ArrowDown') next = cards[index + 1];
    else if (event.key === 'ArrowUp') next = cards[index - 1];
    else if (event.key === 'Home') next = cards[0];
    else if (event.key === 'End') next = cards[cards.length - 1];
    else if (event.key === 'ArrowRight' || event.key === 'ArrowLeft') {
      const columns = [...document.querySelectorAll('.column:not([hidden])')];
      const at = columns.indexOf(current.closest('.column'));
      const column = columns[at + (event.key === 'ArrowRight' ? 1 : -1)];
      const others = column ? column.querySelectorAll('.card') : [];
      next = others[Math.min(index, others.length - 1)];
    } else return;
    if (next) {
      event.preventDefault();
      next.focus();
    }
  }

  // A person's writes: each form is sent as JSON with the page's CSRF
  // token; the change then arrives through the event stream like any other.
  function writeStatus(text, failed) {
    const status = byId('write-status');
    status.textContent = text;
    status.dataset.failed = String(failed);
  }

  async function submit(event) {
    const form = event.target;
    if (!form.classList || !form.classList.contains('write')) return;
    event.preventDefault();
    const token = byId('writes').dataset.csrf;
    const fields = Object.fromEntries(new FormData(form));
    let answer;
    try {
      const response = await fetch(form.action, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': token },
        body: JSON.stringify(fields),
        credentials: 'same-origin',
      });
      answer = await response.json();
    } catch {
      writeStatus('Not sent: the server cannot be reached.', true);
      return;
    }
    if (answer.error) {
      writeStatus('Nothing changed: ' + answer.error, true);
      return;
    }
    writeStatus('Done.', false);
    if (form.closest('#add-task')) form.reset();
    // An edit gives the task a new ID: the edit forms follow it.
    if (answer.task_id && form.closest('#edit-task')) editing(answer.task_id);
  }

  // Fills the edit forms with task `id` as the page shows it.
  function editing(id, title, description, status) {
    const panel = byId('edit-task');
    panel.hidden = false;
    panel.open = true;
    panel.querySelector('summary .id').textContent = id;
    for (const field of panel.querySelectorAll('.task-id')) field.value = id;
    const form = byId('edit-form');
    if (title !== undefined) form.elements.title.value = title;
    if (description !== undefined) form.elements.description.value = description;
    if (status !== undefined) byId('status-form').elements.status.value = status;
  }

  function onEdit(event) {
    const button = event.target.closest && event.target.closest('button.edit');
    if (!button) return;
    const card = button.closest('.card');
    const text = card.querySelector('.text');
    editing(
      button.dataset.taskId,
      card.querySelector('.title').textContent,
      text ? text.textContent : '',
      card.closest('.column').dataset.status,
    );
    byId('edit-form').elements.title.focus();
  }

  function start() {
    for (const time of document.querySelectorAll('time[datetime]')) localise(time);
    const board = byId('board');
    if (!board) return;
    byId('columns').addEventListener('keydown', onKey);
    const writes = byId('writes');
    if (writes) {
      writes.addEventListener('submit', submit);
      byId('columns').addEventListener('click', onEdit);
    }
    setInterval(markStalls, STALL_CHECK_MS);
    if (window.EventSource) connect(board.dataset.events);
  }

  start();
})();
