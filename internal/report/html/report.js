// The trajeval HTML report: draws the cases from the JSON in #data.
// Only the rows scrolled into view are drawn, CHUNK at a time, and a
// case's details are drawn when it is opened, so that a run of tens of
// thousands of cases opens quickly.
(function () {
  'use strict';
  var CHUNK = 100;
  var TRIAL_ROWS = 200;
  var data = JSON.parse(document.getElementById('data').textContent);
  var cases = data.cases;
  var byId = function (id) { return document.getElementById(id); };
  var mark = { pass: '✓', fail: '✗', error: '!' };

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text != null) e.textContent = text;
    return e;
  }
  function add(parent) {
    for (var i = 1; i < arguments.length; i++) {
      var k = arguments[i];
      if (k == null) continue;
      parent.append(k);
    }
    return parent;
  }
  function fmt(x) { return Number(x).toFixed(2); }
  function caseName(c) { return c.suite ? c.suite + ' / ' + c.id : c.id; }

  // Totals.
  var s = data.summary;
  var unit = data.trials ? ' runs' : ' cases';
  add(byId('totals'),
    el('span', 'tot all', s.cases + unit),
    el('span', 'tot pass', s.passed + ' passed'),
    el('span', 'tot fail', s.failed + ' failed'),
    el('span', 'tot error', s.errors + ' could not be scored'));

  // Trials.
  if (data.trials) {
    var sec = byId('trials');
    sec.hidden = false;
    var all = 0, none = 0, flaky = 0;
    data.trials.forEach(function (t) {
      if (t.passed === t.trials) all++; else if (t.passed === 0) none++; else flaky++;
    });
    byId('trials-note').textContent = data.trials.length + ' cases: ' + all + ' passed every trial, ' +
      flaky + ' flaky, ' + none + ' passed none.';
    var head = el('tr');
    add(head, el('th', null, 'case'), el('th', null, 'passed'), el('th', null, 'pass rate'));
    data.ks.forEach(function (k) { add(head, el('th', null, 'pass@' + k)); });
    data.ks.forEach(function (k) { add(head, el('th', null, 'pass^' + k)); });
    add(head, el('th', null, 'score (mean ± sd)'), el('th', null, 'range'), el('th', null, ''));
    byId('trials-table').tHead.append(head);
    var drawTrials = function (n) {
      var body = byId('trials-table').tBodies[0];
      body.textContent = '';
      data.trials.slice(0, n).forEach(function (t) {
        var tr = el('tr', t.flaky ? 'flaky-row' : null);
        add(tr, el('td', null, caseName(t)), el('td', null, t.passed + '/' + t.trials),
          el('td', null, fmt(t.passed / t.trials)));
        t.pass_at.forEach(function (p) { add(tr, el('td', null, p)); });
        t.pass_hat.forEach(function (p) { add(tr, el('td', null, p)); });
        add(tr, el('td', null, fmt(t.mean) + ' ± ' + fmt(t.sd)), el('td', null, fmt(t.lo) + '–' + fmt(t.hi)),
          el('td', t.flaky ? 'flaky' : null, t.flaky ? 'flaky' : ''));
        body.append(tr);
      });
      byId('trials-more').hidden = n >= data.trials.length;
    };
    drawTrials(TRIAL_ROWS);
    byId('trials-more').addEventListener('click', function () { drawTrials(data.trials.length); });
  }

  // Filters.
  cases.forEach(function (c, i) {
    c._i = i;
    c._text = [c.id, c.suite || '', c.error || '', (c.failing || []).join(' ')].join(' ').toLowerCase();
  });
  var sel = byId('f-eval');
  data.evaluators.forEach(function (n) {
    var o = el('option', null, n);
    o.value = n;
    sel.append(o);
  });
  var matching = [];
  var shown = 0;
  var more = byId('more');
  var observer = 'IntersectionObserver' in window ? new IntersectionObserver(function (entries) {
    if (entries.some(function (e) { return e.isIntersecting; }) && shown < matching.length) {
      drawMore();
    }
  }, { rootMargin: '400px' }) : null;

  function apply() {
    var st = { pass: byId('f-pass').checked, fail: byId('f-fail').checked, error: byId('f-error').checked };
    var ev = sel.value;
    var q = byId('f-text').value.trim().toLowerCase();
    // With an evaluator chosen, the status is that evaluator's verdict.
    matching = cases.filter(function (c) {
      var status = ev ? (c.evals || {})[ev] : c.status;
      return status && st[status] && (!q || c._text.indexOf(q) >= 0);
    });
    byId('rows').textContent = '';
    shown = 0;
    drawMore();
  }

  function drawMore() {
    var end = Math.min(matching.length, shown + CHUNK);
    var frag = document.createDocumentFragment();
    for (var i = shown; i < end; i++) frag.append(caseRow(matching[i]));
    byId('rows').append(frag);
    shown = end;
    byId('count').textContent = 'showing ' + shown + ' of ' + matching.length + ' matching (' + cases.length + ' in all)';
    if (observer) {
      // Observe again: if the sentinel is still in view, it fires again.
      observer.unobserve(more);
      if (shown < matching.length) observer.observe(more);
    }
  }

  function caseRow(c) {
    var tr = el('tr', 'case ' + c.status);
    tr.dataset.i = c._i;
    tr.tabIndex = 0;
    tr.setAttribute('aria-expanded', 'false');
    tr.title = 'open: what was expected, what the agent did, and why';
    var name = el('td', 'mono', c.id);
    if (c.attempt) add(name, el('span', 'attempt', 'attempt ' + c.attempt));
    add(tr, add(el('td'), el('span', 'badge ' + c.status, c.status)), name, el('td', null, c.suite || ''),
      el('td', 'num', fmt(c.score)), el('td', null, (c.failing || []).join(', ')));
    return tr;
  }

  function toggle(tr) {
    var next = tr.nextElementSibling;
    if (next && next.classList.contains('detail-row')) {
      next.remove();
      tr.classList.remove('open');
      tr.setAttribute('aria-expanded', 'false');
      return;
    }
    var d = el('tr', 'detail-row');
    var td = el('td', 'detail');
    td.colSpan = 5;
    td.append(caseDetail(cases[+tr.dataset.i]));
    d.append(td);
    tr.after(d);
    tr.classList.add('open');
    tr.setAttribute('aria-expanded', 'true');
  }
  byId('rows').addEventListener('click', function (ev) {
    var tr = ev.target.closest('tr.case');
    if (tr && !ev.target.closest('a, summary')) toggle(tr);
  });
  byId('rows').addEventListener('keydown', function (ev) {
    var tr = ev.target.closest('tr.case');
    if (tr && ev.target === tr && (ev.key === 'Enter' || ev.key === ' ')) {
      ev.preventDefault();
      toggle(tr);
    }
  });

  ['f-pass', 'f-fail', 'f-error', 'f-eval'].forEach(function (id) { byId(id).addEventListener('change', apply); });
  var timer = 0;
  byId('f-text').addEventListener('input', function () {
    clearTimeout(timer);
    timer = setTimeout(apply, 150);
  });

  // A case's details.
  function caseDetail(c) {
    var box = el('div', 'case-detail');
    if (c.error) add(box, el('p', 'err', 'error: ' + c.error));
    if (c.partial) add(box, el('p', 'note', 'scored from a partial trace: the trace was damaged and read leniently'));
    var timelines = (c.views || []).some(function hasRows(v) {
      return (v.rows && v.rows.length) || (v.members || []).some(hasRows);
    });
    if (timelines) {
      add(box, el('p', 'note trace-note', c.trace
        ? 'Actual steps: the recorded trajectory.'
        : 'Actual steps: only those the results name (matched, extra, near misses); run eval with --include-trace to draw every step.'));
    }
    (c.views || []).forEach(function (v) { box.append(evalView(v)); });
    (c.warnings || []).forEach(function (w) { add(box, el('p', 'note', 'warning: ' + w)); });
    return box;
  }

  function evalView(v) {
    var div = el('div', 'eval ' + v.status);
    var h = el('h3');
    var name = (v.turn ? 'turn ' + v.turn + ': ' : '') + v.name;
    add(h, document.createTextNode(mark[v.status] + ' ' + name),
      el('span', 'kind', v.type + (v.mode ? ' ' + v.mode : '')),
      el('span', 'sc', fmt(v.score) + (v.status === 'fail' ? ' < ' + fmt(v.threshold) : '')),
      v.required ? null : el('span', 'kind', '(not required)'));
    div.append(h);
    if (v.error) add(div, el('p', 'err', 'error: ' + v.error));
    if (v.counts) add(div, el('p', 'counts', v.counts));
    if (v.rows && v.rows.length) div.append(timeline(v.rows));
    if (v.unnamed) add(div, el('p', 'note', v.unnamed + ' other actual step' + (v.unnamed > 1 ? 's are' : ' is') + ' not named in the results.'));
    if (v.checks && v.checks.length) {
      var ul = el('ul', 'checks');
      v.checks.forEach(function (c) {
        add(ul, el('li', c.status, c.status + ' ' + c.name + (c.message ? ': ' + c.message : '')));
      });
      div.append(ul);
    }
    (v.notes || []).forEach(function (n) { add(div, el('p', 'mono', n)); });
    (v.warnings || []).forEach(function (w) { add(div, el('p', 'note', 'warning: ' + w)); });
    if (v.members) {
      var m = el('div', 'members');
      v.members.forEach(function (x) { m.append(evalView(x)); });
      div.append(m);
    }
    return div;
  }

  var linkText = { matched: '✓ matched', missing: '✗ missing', mismatch: '✗ near miss', extra: '+ extra', step: '' };

  // timeline draws the expected calls and the actual steps side by side.
  function timeline(rows) {
    var t = el('table', 'timeline');
    var head = el('tr');
    add(head, el('th', null, '#'), el('th', null, 'expected'), el('th', null, ''), el('th', null, ''),
      el('th', null, 'step'), el('th', null, 'actual'));
    t.append(add(el('thead'), head));
    var body = el('tbody');
    rows.forEach(function (r, i) {
      var tr = el('tr', 'tl ' + r.kind);
      var g = r.group;
      if (g != null) {
        var prev = rows[i - 1], next = rows[i + 1];
        var samePrev = prev && prev.group === g && prev.step;
        var sameNext = next && next.group === g && next.step;
        if (samePrev || sameNext) {
          tr.classList.add('in-par');
          if (!samePrev) tr.classList.add('par-first');
          if (!sameNext) tr.classList.add('par-last');
        }
      }
      add(tr,
        el('td', 'n', r.item ? String(r.item) : ''),
        el('td', r.want ? 'want mono' : 'want empty', r.want || '—'),
        el('td', 'link', linkText[r.kind]),
        el('td', 'par'),
        el('td', 'n', r.step ? String(r.step) : ''));
      var got = el('td', r.step ? 'got mono' : 'got empty', r.step ? (r.got || '(not named in the results)') : '—');
      if (r.dur != null) add(got, el('span', 'dur', r.dur + ' ms'));
      if (r.slow) { var sl = el('span', 'flag slow', 'slow'); sl.title = r.slow; got.append(sl); }
      if (r.failed) { var fl = el('span', 'flag failed', 'failed'); fl.title = r.failed; got.append(fl); }
      if (tr.classList.contains('par-first')) add(got, el('span', 'parlabel', 'parallel group ' + g));
      if (r.args) {
        var det = el('details', 'args');
        add(det, el('summary', null, 'args'), el('pre', null, r.args));
        got.append(det);
      }
      tr.append(got);
      body.append(tr);
      if (r.near && r.near.length) {
        var ntr = el('tr', 'near');
        var td = el('td');
        td.colSpan = 6;
        r.near.forEach(function (n) {
          var p = el('div', 'nearmiss', 'near step ' + n.step + ' ' + n.tool + (n.why ? ': ' + n.why : ''));
          (n.diffs || []).forEach(function (d) {
            var sp = el('span', 'diff mono');
            add(sp, el('span', 'path', d.path), document.createTextNode(': expected '), el('span', 'want', d.want),
              document.createTextNode(', got '), el('span', 'got', d.got));
            p.append(sp);
          });
          td.append(p);
        });
        ntr.append(td);
        body.append(ntr);
      }
    });
    t.append(body);
    return t;
  }

  apply();
  document.body.dataset.ready = '1';
  window.trajevalReadyMs = performance.now();
})();
