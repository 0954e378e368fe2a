// SPDX-FileCopyrightText: 2026 The smprof authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The SVG flame graph's zoom, search and hover, in the manner of
// flamegraph.pl's SVGs (smprof-flame-render-svg.c inlines it; this header,
// up to the blank line, is left out).

"use strict";
var frames = [], W, PAD, CHAR, zoomed = null, term = null;
var details, matched, resetButton, clearButton;
function $(id) { return document.getElementById(id); }
function init(evt) {
  var svg = document.documentElement;
  W = +svg.getAttribute('data-frames-width'); PAD = +svg.getAttribute('data-pad');
  CHAR = +svg.getAttribute('data-char-width');
  details = $('details'); matched = $('matched'); resetButton = $('reset'); clearButton = $('clear');
  var gs = $('frames').getElementsByTagName('g');
  for (var i = 0; i < gs.length; i++) {
    var g = gs[i], rect = g.getElementsByTagName('rect')[0];
    var f = { g: g, rect: rect, text: g.getElementsByTagName('text')[0],
              x: +g.getAttribute('data-x'), w: +g.getAttribute('data-w'), d: +g.getAttribute('data-d'),
              p: +g.getAttribute('data-p'), name: g.getAttribute('data-n'), file: g.getAttribute('data-f'),
              info: g.getElementsByTagName('title')[0].textContent, fill: rect.getAttribute('fill') };
    frames.push(f);
    g.addEventListener('click', zoom.bind(null, f));
    g.addEventListener('mouseover', function (f) { details.textContent = f.info.replace(/\n/g, ' \u2014 '); }.bind(null, f));
    g.addEventListener('mouseout', function () { details.textContent = ' '; });
  }
  resetButton.addEventListener('click', unzoom);
  $('search').addEventListener('click', ask);
  clearButton.addEventListener('click', clearSearch);
  window.addEventListener('keydown', function (e) {
    if ((e.ctrlKey && e.key === 'f') || e.key === '/') { e.preventDefault(); ask(); }
    else if (e.key === 'Escape') { if (term !== null) clearSearch(); else unzoom(); }
  });
}
function fit(label, pw) {
  var n = Math.floor((pw - 6) / CHAR);
  if (n < 3) return '';
  return label.length <= n ? label : label.substring(0, n - 2) + '..';
}
function place(f, x, w) {
  var px = PAD + x * W, pw = w * W;
  f.g.style.display = '';
  f.rect.setAttribute('x', px.toFixed(2));
  f.rect.setAttribute('width', Math.max(pw > 1 ? pw - 0.5 : pw, 0).toFixed(2));
  f.text.setAttribute('x', (px + 3).toFixed(2));
  f.text.textContent = fit(f.name, pw);
}
function inside(f, z) { return f.d >= z.d && f.x >= z.x - 1e-12 && f.x + f.w <= z.x + z.w + 1e-12; }
function zoom(z) {
  zoomed = z;
  for (var i = 0; i < frames.length; i++) {
    var f = frames[i];
    if (inside(f, z)) { f.g.classList.remove('parent'); place(f, (f.x - z.x) / z.w, f.w / z.w); }
    else if (f.d < z.d && f.x <= z.x + 1e-12 && f.x + f.w >= z.x + z.w - 1e-12) { f.g.classList.add('parent'); place(f, 0, 1); }
    else f.g.style.display = 'none';
  }
  resetButton.style.display = '';
  if (term !== null) search(term);
}
function unzoom() {
  zoomed = null;
  for (var i = 0; i < frames.length; i++) { frames[i].g.classList.remove('parent'); place(frames[i], frames[i].x, frames[i].w); }
  resetButton.style.display = 'none';
  if (term !== null) search(term);
}
function ask() {
  var t = window.prompt('Search function names and files (ignoring case):', term === null ? '' : term);
  if (t === null) return;
  if (t === '') clearSearch(); else search(t);
}
function search(t) {
  term = t;
  var needle = t.toLowerCase(), hit = [], share = 0;
  for (var i = 0; i < frames.length; i++) {
    var f = frames[i];
    hit[i] = f.name.toLowerCase().indexOf(needle) >= 0 || f.file.toLowerCase().indexOf(needle) >= 0;
    f.rect.setAttribute('fill', hit[i] ? 'rgb(230,0,230)' : f.fill);
  }
  for (var i = 0; i < frames.length; i++) {
    var f = frames[i];
    if (!hit[i] || (zoomed !== null && !inside(f, zoomed))) continue;
    var nested = false;
    for (var p = f.p; p >= 0 && (zoomed === null || frames[p].d >= zoomed.d); p = frames[p].p)
      if (hit[p]) { nested = true; break; }
    if (!nested) share += zoomed === null ? f.w : f.w / zoomed.w;
  }
  matched.textContent = 'Matched: ' + (100 * Math.min(share, 1)).toFixed(1) + '%';
  clearButton.style.display = '';
}
function clearSearch() {
  term = null;
  for (var i = 0; i < frames.length; i++) frames[i].rect.setAttribute('fill', frames[i].fill);
  matched.textContent = ' ';
  clearButton.style.display = 'none';
}
