/* trictrac serve: live pages and the entry at the table (docs/serve.md).  No build step.
   The pages read without this script; it adds the live updates (server-sent events), the
   entry of a coup in taps, and a queue of entries kept in localStorage while the network
   is down, re-sent in order (the server takes each coup once, by game and number). */
(function () {
  'use strict';
  var me = document.currentScript;
  var meta = document.querySelector('meta[name=csrf]');
  var csrf = meta ? meta.content : (me && me.dataset.csrf) || '';

  function $(id) { return document.getElementById(id); }
  function fmt(t, o) { return String(t).replace(/\{(\w+)\}/g, function (_, k) { return o[k] !== undefined ? o[k] : ''; }); }
  function show(el, on) { if (el) { el.hidden = !on; } }
  function post(url, data) {
    return fetch(url, {
      method: 'POST', credentials: 'same-origin',
      headers: {'Content-Type': 'application/json', 'X-CSRF-Token': csrf},
      body: JSON.stringify(data)
    }).then(function (r) {
      if (r.status >= 500) { throw new Error('server ' + r.status); }
      return r.json().then(function (j) { j._code = r.status; return j; });
    });
  }
  function getJSON(url) {
    return fetch(url, {credentials: 'same-origin', headers: {'Accept': 'application/json'}})
      .then(function (r) { if (!r.ok) { throw new Error('http ' + r.status); } return r.json(); });
  }
  function getText(url) {
    return fetch(url, {credentials: 'same-origin'})
      .then(function (r) { if (!r.ok) { throw new Error('http ' + r.status); } return r.text(); });
  }

  /* ---- live updates ------------------------------------------------------------------ */
  function listen(game, onEvent) {
    if (!window.EventSource) { setInterval(function () { onEvent({}); }, 5000); return; }
    var es = new EventSource('/events' + (game ? '?game=' + encodeURIComponent(game) : ''));
    var opened = false;
    es.onopen = function () { if (opened) { onEvent({}); } opened = true; };  // catch up after a cut
    es.onmessage = function (e) { var ev = {}; try { ev = JSON.parse(e.data); } catch (x) { /* ignore */ } onEvent(ev); };
  }
  var box = $('live');
  var liveMode = box ? box.dataset.live : (me && me.dataset.live);
  if (liveMode === 'club') {
    listen(null, function () { getText('/part/club').then(function (h) { box.innerHTML = h; }).catch(function () {}); });
  } else if (liveMode === 'game') {
    var g = box.dataset.game;
    listen(g, function (ev) {
      if (ev.kind && ev.kind !== 'game') { return; }
      getText('/g/' + g + '/part').then(function (h) { box.innerHTML = h; }).catch(function () {});
    });
  } else if (liveMode === 'standings') {
    listen(null, function (ev) { if (ev.kind === 'standings') { location.reload(); } });
  }

  /* ---- the entry at the table ------------------------------------------------------- */
  var entry = $('entry');
  if (!entry) { return; }
  var W = JSON.parse(entry.dataset.words || '{}');
  var gid = entry.dataset.game;
  var names = {A: entry.dataset.a, B: entry.dataset.b};
  var qKey = 'tt-queue-' + gid;
  var E = {next: parseInt(entry.dataset.next, 10), side: entry.dataset.side, die1: null, roll: null, play: null,
           finished: entry.dataset.finished === '1', flushing: false, offline: false};

  function who(side) {
    var name = names[side];
    var t = fmt(W.throw_of, {side: side, name: name || side});
    return !name || name === side ? t.replace(' (' + side + ')', '') : t;
  }
  function queue() { try { return JSON.parse(localStorage.getItem(qKey) || '[]'); } catch (x) { return []; } }
  function saveQueue(q) {
    try { localStorage.setItem(qKey, JSON.stringify(q)); } catch (x) { /* private mode: kept in memory only */ }
    var el = $('queue');
    el.textContent = q.length ? fmt(q.length === 1 ? W.queued_one : W.queued_many, {n: q.length}) : '';
    show(el, q.length > 0);
  }
  function status(text, cls) { var s = $('status'); s.textContent = text || ''; s.className = cls || ''; }
  function messages(list) {
    var m = $('messages'); m.textContent = '';
    (list || []).forEach(function (t) { var p = document.createElement('p'); p.textContent = t; m.appendChild(p); });
  }
  function stage(name) {
    entry.dataset.stage = name || 'over';
    show($('restart-row'), name === 'play' || name === 'marks' || name === 'offline');
    ['roll', 'play', 'marks', 'offline'].forEach(function (s) { show($('step-' + s), s === name && !E.finished); });
  }
  function pressed(group, value) {
    Array.prototype.forEach.call(group.querySelectorAll('button'), function (b) {
      b.setAttribute('aria-pressed', b.dataset.die === String(value) ? 'true' : 'false');
    });
  }
  function reset() {
    E.die1 = null; E.roll = null; E.play = null;
    pressed($('die1'), null); pressed($('die2'), null);
    var q = queue();
    $('roll-title').textContent = q.length || E.offline ? fmt(W.coup_title, {n: E.next})
      : who(E.side);
    stage('roll');
  }

  function showClaims(list) {
    var ul = $('claims-list'); ul.textContent = '';
    (list || []).forEach(function (c) {
      var li = document.createElement('li'); li.textContent = c.text + ' ';
      var b = document.createElement('button'); b.type = 'button'; b.dataset.claim = c.marks; b.textContent = c.button;
      li.appendChild(b); ul.appendChild(li);
    });
    show($('claims'), (list || []).length > 0);
  }

  function acked(n) { entry.dataset.acked = String(Math.max(parseInt(entry.dataset.acked || '0', 10), n)); }

  function refresh() {
    return getJSON('/g/' + gid + '/state').then(function (st) {
      $('live').innerHTML = st.html;
      showClaims(st.claims);
      entry.dataset.acked = String(st.next - 1);
      E.finished = st.state.finished;
      var q = queue();
      var ahead = q.length ? q[q.length - 1].seq + 1 : st.next;
      if (st.next !== E.next && !q.length) {
        if (E.roll && st.next > E.next) { status(fmt(W.conflict, {n: E.next, coup: ''}), 'warn'); }
        E.next = st.next; E.side = st.state.side; reset();
      } else {
        E.next = Math.max(st.next, ahead); E.side = st.state.side;
        if (!E.roll && E.die1 === null) { reset(); }
      }
      if (E.finished) { stage(null); }  // the game's own line says it is over (#turn)
    });
  }

  function submit(roll, play, marks) {
    var q = queue();
    q.push({seq: E.next, roll: roll, play: play || '', marks: marks || ''});
    saveQueue(q);
    E.next += 1;
    reset();
    flush();
  }

  function flush() {
    if (E.flushing) { return; }
    var q = queue();
    if (!q.length) { return; }
    E.flushing = true;
    var item = q[0];
    post('/g/' + gid + '/coup', item).then(function (r) {
      E.flushing = false; E.offline = false;
      var rest = queue().filter(function (x) { return x.seq !== item.seq; });
      if (r.status === 'ok' || r.status === 'duplicate') {
        saveQueue(rest);
        acked(item.seq);
        // the coup as written, with its number in the game (a problem's position may start at 11)
        status(r.coup ? fmt(r.status === 'ok' ? W.saved_as : W.already_as, {coup: r.coup})
          : fmt(r.status === 'ok' ? W.saved : W.already, {n: item.seq}), 'ok');
        messages(r.messages);
        if (rest.length) { flush(); } else { refresh(); }
        return;
      }
      // a conflict or a refused entry: the entries after it were made on it, drop them too
      saveQueue([]);
      if (r.status === 'conflict') { status(fmt(W.conflict, {n: item.seq, coup: r.coup || r.message}), 'warn'); }
      else { status(r.message || r.status, 'error'); }
      E.next = r.next || E.next; refresh();
    }).catch(function () {
      E.flushing = false; E.offline = true;
      status('', ''); saveQueue(queue());
      setTimeout(flush, 2000);
    });
  }
  window.addEventListener('online', flush);

  function offlineStep() { E.offline = true; stage('offline'); $('offline-form').play.focus(); }

  function previewRoll(roll) {
    E.roll = roll; entry.dataset.stage = 'wait';
    if (queue().length) { offlineStep(); return; }
    post('/g/' + gid + '/preview', {seq: E.next, roll: roll}).then(function (pv) {
      if (pv.stage === 'stale') { refresh(); return; }
      if (pv.stage === 'error') { status(pv.message, 'error'); reset(); return; }
      if (pv.stage === 'commit') { submit(roll, '', ''); return; }
      status('');
      if (pv.stage === 'marks') { showMarks(pv); return; }
      showPlays(pv);
    }).catch(offlineStep);
  }

  function showPlays(pv) {
    $('play-title').textContent = fmt(W.throw_roll, {who: who(pv.side), roll: E.roll.charAt(0) + '-' + E.roll.charAt(1)});
    fillWorth($('worth'), pv.worth);
    var box = $('plays'); box.textContent = '';
    pv.plays.forEach(function (p, i) {
      var b = document.createElement('button'); b.type = 'button';
      b.dataset.play = String(i + 1);
      var n = document.createElement('span'); n.className = 'n'; n.textContent = (i + 1) + '.';
      b.appendChild(n); b.appendChild(document.createTextNode(' ' + p));
      box.appendChild(b);
    });
    show($('leave-box'), pv.can_leave);
    $('pv-board-play').innerHTML = pv.board || '';
    stage('play');
  }

  function choosePlay(play) {
    E.play = play; entry.dataset.stage = 'wait';
    post('/g/' + gid + '/preview', {seq: E.next, roll: E.roll, play: play}).then(function (pv) {
      if (pv.stage === 'stale') { refresh(); return; }
      if (pv.stage === 'error') { status(pv.message, 'error'); return; }
      if (pv.stage === 'commit') { submit(E.roll, play, ''); return; }
      showMarks(pv);
    }).catch(function () { submit(E.roll, play, ''); });
  }

  function fillWorth(w, lines) {
    w.textContent = '';
    (lines || []).forEach(function (t) { var li = document.createElement('li'); li.textContent = t; w.appendChild(li); });
  }

  function showMarks(pv) {
    var played = pv.chosen ? ' — ' + pv.chosen : '';
    $('marks-title').textContent = W.marks + ' — ' + who(pv.side) + ' ' + E.roll.charAt(0) + '-' + E.roll.charAt(1) + played;
    fillWorth($('worth-marks'), pv.worth);
    $('proposed').textContent = pv.default_marks || W.nothing_due;
    var m = /^([AB])\+(\d+)/.exec(pv.default_marks || '');
    var ec = $('ecole');
    if (m && m[1] === pv.side) {
      var other = m[1] === 'A' ? 'B' : 'A';
      ec.textContent = fmt(W.ecole_by, {who: other + ' (' + (names[other] || other) + ')', n: m[2]});
      ec.dataset.marks = other + ':école+' + m[2];
      show(ec, true);
    } else { show(ec, false); }
    $('marks-form').marks.value = '';
    $('pv-board-marks').innerHTML = pv.board || '';
    stage('marks');
  }

  document.addEventListener('click', function (e) {
    var b = e.target.closest('#entry button, #tools button');
    if (!b || b.type === 'submit') { return; }
    if (b.dataset.die) {
      var group = b.parentNode.id;
      if (group === 'die1' || E.die1 === null) {
        E.die1 = b.dataset.die; pressed($('die1'), E.die1); pressed($('die2'), null);
      } else {
        pressed($('die2'), b.dataset.die);
        previewRoll(E.die1 + b.dataset.die);
      }
    } else if (b.dataset.roll) { previewRoll(b.dataset.roll); }
    else if (b.dataset.claim) {
      if (queue().length) { return; }
      post('/g/' + gid + '/claim', {seq: E.next, marks: b.dataset.claim}).then(function (r) {
        status(r.status === 'ok' || r.status === 'duplicate' ? '' : (r.message || r.status), r.status === 'ok' ? 'ok' : 'warn');
        if (r.status === 'ok') { messages(r.messages); }
        refresh();
      }).catch(function () { status('?', 'error'); });
    }
    else if (b.dataset.play) { choosePlay(b.dataset.play); }
    else if (b.id === 'leave') { choosePlay('v'); }
    else if (b.id === 'stay') { show($('leave-box'), false); var f = $('plays').querySelector('button'); if (f) { f.focus(); } }
    else if (b.id === 'accept') { submit(E.roll, E.play || '', ''); }
    else if (b.id === 'nothing') { submit(E.roll, E.play || '', '--'); }
    else if (b.id === 'ecole') { submit(E.roll, E.play || '', b.dataset.marks); }
    else if (b.id === 'restart') { status(''); reset(); refresh(); }
    else if (b.id === 'undo') {
      if (queue().length || !window.confirm(W.undo_confirm)) { return; }
      post('/g/' + gid + '/undo', {seq: E.next}).then(function (r) {
        status(r.status === 'ok' ? (r.messages || []).join(' ') : (r.message || r.status), r.status === 'ok' ? 'ok' : 'warn');
        refresh();
      }).catch(function () { status('?', 'error'); });
    }
  });
  $('other-play').addEventListener('submit', function (e) {
    e.preventDefault(); var v = this.play.value.trim(); if (v) { choosePlay(v); this.play.value = ''; }
  });
  $('marks-form').addEventListener('submit', function (e) {
    e.preventDefault(); var v = this.marks.value.trim(); if (v) { submit(E.roll, E.play || '', v); }
  });
  $('offline-form').addEventListener('submit', function (e) {
    e.preventDefault(); var v = this.play.value.trim(); this.play.value = ''; submit(E.roll, v, '');
  });
  $('comment-form').addEventListener('submit', function (e) {
    e.preventDefault(); var f = this, v = f.text.value.trim(); if (!v || queue().length) { return; }
    post('/g/' + gid + '/comment', {seq: E.next, text: v}).then(function (r) {
      if (r.status === 'ok') { f.text.value = ''; status((r.messages || []).join(' '), 'ok'); } else { status(r.message || r.status, 'warn'); }
      refresh();
    }).catch(function () { status('?', 'error'); });
  });

  entry.hidden = false;
  $('tools').hidden = false;
  entry.dataset.acked = String(E.next - 1);
  saveQueue(queue());
  var q0 = queue();
  if (q0.length) { E.next = Math.max(E.next, q0[q0.length - 1].seq + 1); }
  reset();
  if (E.finished) { stage(null); }
  flush();
  listen(gid, function () { if (!E.flushing && !queue().length) { refresh().catch(function () {}); } });
})();
