// The arena replay viewer: reads the page's JSON (viewer.Data), draws frame `cur` (the state
// before step `cur`, or the end), and moves through the frames. Every text from the record
// (bot names, answers, fault details) goes into the page through textContent only.
(function () {
  'use strict';

  var D = JSON.parse(document.getElementById('arena-replay').textContent);
  var rec = D.record, frames = D.frames || [], steps = rec.steps || [], seats = D.seats || [];
  var setups = D.setups || [], outcome = D.outcome || {};
  var N = steps.length; // frames.length is N + 1: the last frame is the end
  var cur = 0, playing = false, speed = 10, carry = 0, lastT = 0;
  var SPEEDS = [1, 2, 5, 10, 20, 50, 100, 250, 1000];

  // ---- helpers
  function el(tag, attrs) {
    var e = document.createElement(tag);
    if (attrs) {
      for (var k in attrs) {
        if (!Object.prototype.hasOwnProperty.call(attrs, k) || attrs[k] == null) continue;
        if (k === 'text') e.textContent = String(attrs[k]);
        else if (k === 'cls') e.className = attrs[k];
        else if (k === 'style') e.setAttribute('style', attrs[k]);
        else e.setAttribute(k, String(attrs[k]));
      }
    }
    for (var i = 2; i < arguments.length; i++) {
      var c = arguments[i];
      if (c == null) continue;
      if (Array.isArray(c)) c.forEach(function (x) { if (x != null) e.appendChild(typeof x === 'object' ? x : document.createTextNode(String(x))); });
      else e.appendChild(typeof c === 'object' ? c : document.createTextNode(String(c)));
    }
    return e;
  }
  function num(v) { return v == null || v === '' ? 0 : Number(v); }
  function $(id) { return document.getElementById(id); }
  function color(i) { return 'var(--p' + (i % 6) + ')'; }
  // mark is a player's marker: its colour in a shape of its own (circle, square, triangle,
  // diamond, pentagon, cross: viewer.css), so players are told apart without seeing colour.
  function mark(i) { return el('span', { cls: 'swatch shape-' + (i % 6), style: 'background:' + color(i), 'aria-hidden': 'true' }); }
  function seatName(s) { return seats[s] ? seats[s].name : 'seat ' + s; }
  function playerOf(s) { return seats[s] ? seats[s].player : s; }
  function ms(us) { return us == null ? '' : (num(us) / 1000).toFixed(num(us) < 10000 ? 2 : 0) + ' ms'; }
  function obsOf(k, s) { var f = frames[k]; return f && f.obs ? f.obs[s] : undefined; }
  function anyObs(k) { var f = frames[k]; if (!f || !f.obs) return undefined; for (var s in f.obs) return f.obs[s]; return undefined; }
  function answersAt(k) { return k < N ? (steps[k].answers || []) : []; }
  function answerOf(k, s) { var a = answersAt(k); for (var i = 0; i < a.length; i++) if (a[i].seat === s) return a[i]; return undefined; }
  // shellWord quotes a word for a POSIX shell when it needs it (bot names are the player's).
  function shellWord(w) { w = String(w); return /^[A-Za-z0-9_.\/:=@%+,-]+$/.test(w) ? w : "'" + w.replace(/'/g, "'\\''") + "'"; }
  // forkCommand is the command that plays on from step k (from 0) with the recorded players.
  function forkCommand(k) {
    var ps = (rec.config && rec.config.players || []).map(function (p) { return shellWord(p.name); });
    return 'arena play --from ' + shellWord(D.source || 'replay.json') + ' --step ' + (k + 1) + ' ' + ps.join(' ');
  }
  function enumTail(v, prefix) { return v ? String(v).replace(prefix, '') : ''; }

  // ---- each game: how an answer reads, how the state is drawn
  var games = {};

  function actionText(a) {
    if (!a) return '';
    if (a.fault) return 'FAULT ' + a.fault.kind;
    var act = a.action || {};
    var g = games[rec.game];
    if (g && g.answer) return g.answer(act, a);
    return JSON.stringify(act);
  }

  // dynamite ---------------------------------------------------------------------------------
  var THROW = { DYNAMITE_MOVE_ROCK: 'R', DYNAMITE_MOVE_PAPER: 'P', DYNAMITE_MOVE_SCISSORS: 'S', DYNAMITE_MOVE_DYNAMITE: 'D', DYNAMITE_MOVE_WATER: 'W' };
  var THROWNAME = { R: 'rock', P: 'paper', S: 'scissors', D: 'dynamite', W: 'water balloon' };
  function throwOf(a) { return a && !a.fault && a.action && a.action.dynamite ? (THROW[a.action.dynamite.move] || '?') : ''; }
  games.dynamite = {
    answer: function (act) { var t = act.dynamite ? THROW[act.dynamite.move] : ''; return t ? t + ' (' + THROWNAME[t] + ')' : JSON.stringify(act); },
    init: function () {
      // running scores and stakes per frame, for the chart and the strip
      this.sc = [[], []]; this.stake = [];
      for (var k = 0; k < frames.length; k++) {
        var o0 = obsOf(k, 0) || {}, o1 = obsOf(k, 1) || {};
        this.sc[0].push(num(o0.own_score)); this.sc[1].push(num(o1.own_score));
        this.stake.push(num(o0.stake || o1.stake) || 1);
      }
    },
    draw: function (k, board) {
      var setup = (setups[0] || {}), target = num(setup.target_score) || 1000, self = this;
      var stake = this.stake[k];
      var row = el('div', { cls: 'row' });
      [0, 1].forEach(function (s) {
        var o = obsOf(k, s) || {};
        var t = throwOf(answerOf(k, s));
        row.appendChild(el('div', { cls: 'card player', style: '--pc:' + color(s), 'data-seat': s },
          el('h3', { text: seatName(s) }),
          el('div', { cls: 'big score', 'data-seat': s, text: self.sc[s][k] }),
          el('div', { cls: 'muted', text: 'of ' + target + ' to win' }),
          el('div', null, el('span', { cls: 'badge dyn', 'data-seat': s, text: 'dynamite left ' + num(o.own_dynamite_left) })),
          k < N ? el('div', { style: 'margin-top:8px' }, 'throws ', el('span', { cls: 'throw mv-' + (t || 'none'), 'data-seat': s, title: THROWNAME[t] || 'no throw', text: t || '-' })) : null));
      });
      var o = anyObs(k) || {};
      board.appendChild(el('div', { cls: 'card' },
        el('span', { cls: 'badge', id: 'round', text: k < N ? 'round ' + num(o.round || k + 1) : 'after ' + N + ' rounds' }),
        el('span', { cls: 'badge' + (stake > 1 ? ' warn' : ''), id: 'stake', text: 'this round is worth ' + stake + (stake > 1 ? ' (' + (stake - 1) + ' draw' + (stake > 2 ? 's' : '') + ' rolled over)' : '') })));
      board.appendChild(row);
      if (k < N) board.appendChild(el('div', { cls: 'card', id: 'result', text: this.result(k) }));
      board.appendChild(this.chart(k, target));
      // the last rounds: both throws, coloured by who took the point
      var strip = el('div', { cls: 'strip', id: 'strip' });
      for (var j = Math.max(0, k - 21); j <= Math.min(N - 1, k + 8); j++) {
        var t0 = throwOf(answerOf(j, 0)), t1 = throwOf(answerOf(j, 1));
        var d0 = this.sc[0][j + 1] - this.sc[0][j], d1 = this.sc[1][j + 1] - this.sc[1][j];
        var cls = 'cell' + (j === k ? ' cur' : '') + (d0 > 0 ? ' w0' : d1 > 0 ? ' w1' : ' draw');
        var c = el('div', { cls: cls, title: 'round ' + (j + 1) }, el('span', { text: t0 || '-' }), el('span', { text: t1 || '-' }));
        (function (jj) { c.addEventListener('click', function () { go(jj); }); })(j);
        strip.appendChild(c);
      }
      board.appendChild(el('div', { cls: 'card' }, el('div', { cls: 'muted', text: 'last rounds (top: ' + seatName(0) + ', bottom: ' + seatName(1) + '; blue/red: who scored)' }), strip));
    },
    // what round k did: from the scores before and after it (a forfeit ends the match instead)
    result: function (k) {
      var f = frames[k] || {};
      if (f.charged && f.charged.length) return 'round ' + (k + 1) + ': ' + seatName(f.charged[0].seat) + ' ' + f.charged[0].penalty + ' (' + f.charged[0].kind + ')';
      var d0 = this.sc[0][k + 1] - this.sc[0][k], d1 = this.sc[1][k + 1] - this.sc[1][k];
      if (d0 > 0) return 'round ' + (k + 1) + ': ' + seatName(0) + ' takes ' + d0 + ' point' + (d0 > 1 ? 's' : '');
      if (d1 > 0) return 'round ' + (k + 1) + ': ' + seatName(1) + ' takes ' + d1 + ' point' + (d1 > 1 ? 's' : '');
      return 'round ' + (k + 1) + ': a draw, the point rolls over (the next round is worth ' + (this.stake[k] + 1) + ')';
    },
    chart: function (k, target) {
      var NS = 'http://www.w3.org/2000/svg', W = 600, H = 120, n = Math.max(frames.length - 1, 1);
      var top = Math.max(target, Math.max.apply(null, this.sc[0].concat(this.sc[1])), 1);
      var svg = document.createElementNS(NS, 'svg');
      svg.setAttribute('viewBox', '0 0 ' + W + ' ' + H); svg.setAttribute('class', 'chart'); svg.setAttribute('preserveAspectRatio', 'none');
      var every = Math.max(1, Math.floor(frames.length / 600));
      for (var s = 0; s < 2; s++) {
        var pts = [];
        for (var j = 0; j < frames.length; j += every) pts.push((j / n * W).toFixed(1) + ',' + (H - this.sc[s][j] / top * (H - 6) - 3).toFixed(1));
        var pl = document.createElementNS(NS, 'polyline');
        pl.setAttribute('points', pts.join(' ')); pl.setAttribute('fill', 'none'); pl.setAttribute('style', 'stroke:' + color(s)); pl.setAttribute('stroke-width', '2');
        if (s) pl.setAttribute('stroke-dasharray', '7 4'); // told apart by the dash as well as the colour
        svg.appendChild(pl);
      }
      var ln = document.createElementNS(NS, 'line'), x = (k / n * W).toFixed(1);
      ln.setAttribute('x1', x); ln.setAttribute('x2', x); ln.setAttribute('y1', 0); ln.setAttribute('y2', H); ln.setAttribute('stroke', '#f59e0b'); ln.setAttribute('stroke-width', '2');
      svg.appendChild(ln);
      return el('div', { cls: 'card' }, el('div', { cls: 'muted' }, 'running score: ',
        el('span', { cls: 'key', 'data-seat': 0 }, '\u2500\u2500 ', seatName(0)), ', ',
        el('span', { cls: 'key', 'data-seat': 1 }, '- - ', seatName(1))), svg);
    }
  };

  // finger -----------------------------------------------------------------------------------
  var FMOVE = { FINGER_MOVE_LEFT_TO_LEFT: ['L', 'L'], FINGER_MOVE_LEFT_TO_RIGHT: ['L', 'R'], FINGER_MOVE_RIGHT_TO_LEFT: ['R', 'L'], FINGER_MOVE_RIGHT_TO_RIGHT: ['R', 'R'] };
  function fingerText(f) {
    if (!f) return 'no move';
    if (f.move === 'FINGER_MOVE_SWITCH') return 'switch to ' + num(f.switch_left) + ' / ' + num(f.switch_right);
    var m = FMOVE[f.move];
    return m ? (m[0] === 'L' ? 'left' : 'right') + ' hits ' + (m[1] === 'L' ? 'left' : 'right') : enumTail(f.move, 'FINGER_MOVE_') || 'no move';
  }
  games.finger = {
    answer: function (act) { return act.finger ? fingerText(act.finger) : JSON.stringify(act); },
    // the state as absolute seats: the observation belongs to the seat to move
    state: function (k) {
      var f = frames[k];
      if (!f || !f.obs) return null;
      for (var key in f.obs) {
        var s = Number(key), o = f.obs[key], t = 1 - s;
        var st = { mover: s, game: num(o.game), round: num(o.round), starter: o.starting_player || '', hands: [], won: [], both: num(o.games_both_lost) };
        st.hands[s] = [num(o.own_left), num(o.own_right)]; st.hands[t] = [num(o.opponent_left), num(o.opponent_right)];
        st.won[s] = num(o.games_won); st.won[t] = num(o.games_lost);
        return st;
      }
      return null;
    },
    draw: function (k, board) {
      var st = this.state(k), setup = setups[0] || {};
      if (!st) { board.appendChild(endCard()); return; }
      var a = answerOf(k, st.mover), act = a && !a.fault && a.action ? a.action.finger : null;
      var hit = act && FMOVE[act.move];
      board.appendChild(el('div', { cls: 'card' },
        el('span', { cls: 'badge', id: 'game', text: 'game ' + st.game + ' of ' + (num(setup.games) || '?') }),
        el('span', { cls: 'badge', id: 'round', text: 'move ' + st.round }),
        el('span', { cls: 'badge', text: (st.starter || '?') + ' started' }),
        st.both ? el('span', { cls: 'badge', text: st.both + ' lost by both' }) : null));
      var row = el('div', { cls: 'row' });
      [0, 1].forEach(function (s) {
        var hands = el('div', { cls: 'hands' });
        ['left', 'right'].forEach(function (side, h) {
          var n = st.hands[s][h], cls = 'hand' + (n === 0 ? ' dead' : '');
          if (hit && s === st.mover && hit[0] === (h ? 'R' : 'L')) cls += ' attacker';
          if (hit && s !== st.mover && hit[1] === (h ? 'R' : 'L')) cls += ' target';
          hands.appendChild(el('div', { cls: cls, 'data-seat': s, 'data-hand': side },
            el('div', { cls: 'muted', text: side }), el('div', { cls: 'count', text: n }), el('div', { cls: 'pips', text: new Array(n + 1).join('|') })));
        });
        row.appendChild(el('div', { cls: 'card player' + (s === st.mover ? ' tomove' : ''), style: '--pc:' + color(s), 'data-seat': s },
          el('h3', { text: seatName(s) }),
          el('div', { cls: 'muted', text: s === st.mover ? 'to move: ' + fingerText(act) + (a && a.fault ? ' (fault: ' + a.fault.kind + ')' : '') : 'waiting' }),
          hands,
          el('div', null, el('span', { cls: 'badge won', 'data-seat': s, text: 'games won ' + st.won[s] }))));
      });
      board.appendChild(row);
      var end = gameEnd(st.won, this.state(k + 1), st.both, st.game);
      if (end) board.appendChild(el('div', { cls: 'card', id: 'result', text: end }));
    }
  };

  // bidding ----------------------------------------------------------------------------------
  function bidOf(a) { return a && !a.fault && a.action ? (a.action.bidding ? num(a.action.bidding.bid) : a.action.auction ? num(a.action.auction.bid) : null) : null; }
  games.bidding = {
    answer: function (act) { return act.bidding ? '$' + num(act.bidding.bid) : JSON.stringify(act); },
    draw: function (k, board) {
      var o0 = obsOf(k, 0), o1 = obsOf(k, 1), setup = setups[0] || {};
      if (!o0 && !o1) { board.appendChild(endCard()); return; }
      var o = o0 || o1, sA = -1;
      [0, 1].forEach(function (s) { var x = obsOf(k, s); if (x && x.player === 'BIDDING_PLAYER_A') sA = s; });
      if (sA < 0) sA = 0;
      var sB = 1 - sA, pos = num(o.bottle_position);
      board.appendChild(el('div', { cls: 'card' },
        el('span', { cls: 'badge', id: 'game', text: 'game ' + num(o.game) + ' of ' + (num(setup.games) || '?') }),
        el('span', { cls: 'badge', id: 'round', text: 'round ' + num(o.round) + ' of ' + (num(setup.max_rounds) || '?') })));
      var track = el('div', { cls: 'track', id: 'track', 'data-bottle': pos });
      for (var p = 0; p <= 10; p++) {
        var cls = 'place' + (p === 10 ? ' end-a' : p === 0 ? ' end-b' : '') + (p === pos ? ' bottle' : '');
        track.appendChild(el('div', { cls: cls, title: 'place ' + p, text: p === pos ? '\u25BC' + p : p }));
      }
      board.appendChild(el('div', { cls: 'card' },
        el('div', { cls: 'row', style: 'justify-content:space-between' },
          el('span', { text: '\u2190 B: ' + seatName(sB) + ' wins at 0' }), el('span', { text: 'A: ' + seatName(sA) + ' wins at 10 \u2192' })),
        track));
      var row = el('div', { cls: 'row' });
      [0, 1].forEach(function (s) {
        var x = obsOf(k, s) || {}, bid = bidOf(answerOf(k, s)), f = answerOf(k, s);
        row.appendChild(el('div', { cls: 'card player', style: '--pc:' + color(s), 'data-seat': s },
          el('h3', { text: seatName(s) + (s === sA ? ' (A)' : ' (B)') }),
          el('div', { cls: 'big purse', 'data-seat': s, text: '$' + num(x.own_money) }),
          el('div', { cls: 'muted', text: 'purse of $' + num(x.start_money || setup.start_money) }),
          el('div', null,
            x.draw_advantage ? el('span', { cls: 'badge warn', text: 'holds the draw advantage' }) : null,
            el('span', { cls: 'badge', text: 'rounds won ' + num(x.rounds_won) }),
            el('span', { cls: 'badge won', 'data-seat': s, text: 'games won ' + num(x.games_won) })),
          el('div', { style: 'margin-top:6px' }, 'bids ', el('b', { cls: 'bid', 'data-seat': s, text: f && f.fault ? 'FAULT ' + f.fault.kind : bid == null ? '-' : '$' + bid }),
            x.has_last ? el('span', { cls: 'muted', text: ' (last round: $' + num(x.last_own_bid) + ')' }) : null)));
      });
      board.appendChild(row);
      var next = [obsOf(k + 1, 0), obsOf(k + 1, 1)], won = [num((o0 || {}).games_won), num((o1 || {}).games_won)];
      var after = next[0] && next[1] ? { won: [num(next[0].games_won), num(next[1].games_won)], both: num(next[0].games_drawn), game: num(next[0].game) } : null;
      var endB = gameEnd(won, after, num(o.games_drawn), num(o.game), 'drawn');
      if (endB) board.appendChild(el('div', { cls: 'card', id: 'result', text: endB }));
    }
  };

  // auction ----------------------------------------------------------------------------------
  games.auction = {
    answer: function (act) { return act.auction ? 'bids ' + num(act.auction.bid) : JSON.stringify(act); },
    init: function () {
      var setup = setups[0] || {};
      this.items = setup.auction_items || [];
      this.artists = num(setup.artists_num);
      this.need = num(setup.required_count);
      this.names = seats.map(function (s, i) { return (setups[i] || {}).own_name || s.name; });
      // works[k][seat][artist] as of frame k, and each sold item's winner and price,
      // from what every frame reports about the round before it
      this.works = []; this.sold = [];
      var w = this.names.map(function () { var a = []; for (var i = 0; i < games.auction.artists; i++) a.push(0); return a; });
      for (var k = 0; k < frames.length; k++) {
        var o = anyObs(k);
        if (k > 0 && o && o.bid_winner) {
          var seat = this.names.indexOf(o.bid_winner), art = Number(String(o.bid_item || '').replace(/^t/, ''));
          if (seat >= 0 && art >= 0 && art < this.artists) { w = w.map(function (r) { return r.slice(); }); w[seat][art]++; }
          this.sold[num(o.item_index) - 1] = { winner: o.bid_winner, price: num(o.winning_bid) };
        }
        this.works.push(w);
      }
    },
    draw: function (k, board) {
      var o = anyObs(k) || {}, self = this, idx = num(o.item_index), works = this.works[k];
      board.appendChild(el('div', { cls: 'card' },
        el('span', { cls: 'badge', id: 'item', text: o.finished ? 'auction over after ' + idx + ' items' : 'item ' + (idx + 1) + ': artist ' + (o.item || '?') }),
        el('span', { cls: 'badge', text: 'first to ' + this.need + ' works of one artist wins' }),
        o.bid_winner ? el('span', { cls: 'badge', id: 'lastsale', text: 'last sale: ' + o.bid_item + ' to ' + o.bid_winner + ' for ' + num(o.winning_bid) }) : null,
        o.game_winner ? el('span', { cls: 'badge warn', text: 'winner: ' + o.game_winner } ) : null));
      var strip = el('div', { cls: 'items', id: 'items' });
      for (var i = Math.max(0, idx - 6); i < Math.min(this.items.length, idx + 14); i++) {
        var sold = this.sold[i];
        strip.appendChild(el('div', { cls: 'item' + (i === idx && !o.finished ? ' cur' : i < idx ? ' past' : ''), title: sold ? 'sold to ' + sold.winner + ' for ' + sold.price : 'item ' + (i + 1) },
          el('div', { text: '#' + (i + 1) }), el('div', { text: this.items[i] }), el('div', { cls: 'muted', text: i < idx && sold ? sold.price : '' })));
      }
      board.appendChild(el('div', { cls: 'card' }, el('div', { cls: 'muted', text: 'items (sold ones show their price)' }), strip));
      var head = el('tr', null, el('th', { text: 'bot' }), el('th', { cls: 'num', text: 'money' }), el('th', { cls: 'num', text: 'clock' }));
      for (var a = 0; a < this.artists; a++) head.appendChild(el('th', { cls: 'num', text: 't' + a }));
      head.appendChild(el('th', { cls: 'num', text: 'bid' }));
      var body = el('tbody');
      this.names.forEach(function (name, s) {
        var wealth = o.wealth_table ? num(o.wealth_table[name]) : 0, out = wealth < 0;
        var tr = el('tr', { cls: out ? 'fault' : '', 'data-seat': s },
          el('td', null, mark(s), name),
          el('td', { cls: 'num money', 'data-seat': s, text: out ? 'out' : wealth }),
          el('td', { cls: 'num', text: o.remain_time && o.remain_time[name] != null ? num(o.remain_time[name]).toFixed(1) + ' s' : '' }));
        for (var a = 0; a < self.artists; a++) {
          var c = works[s][a];
          tr.appendChild(el('td', { cls: 'num works' + (c >= self.need ? ' won' : c === self.need - 1 && c > 0 ? ' near' : ''), 'data-seat': s, 'data-artist': a, text: c }));
        }
        var ans = answerOf(k, s), bid = bidOf(ans);
        tr.appendChild(el('td', { cls: 'num bid', 'data-seat': s, text: ans && ans.fault ? 'FAULT' : bid == null ? '' : bid }));
        body.appendChild(tr);
      });
      board.appendChild(el('div', { cls: 'card' }, el('div', { cls: 'muted', text: 'wealth and works per artist' }), el('table', { id: 'wealth' }, el('thead', null, head), body)));
    }
  };

  // realtv -----------------------------------------------------------------------------------
  games.realtv = {
    answer: function (act) {
      var v = act.realtv ? act.realtv.vote_id : '';
      if (!v) return 'no vote';
      var who = this.byId[v];
      return 'votes ' + v + (who != null ? ' (' + seatName(who) + ')' : '');
    },
    init: function () {
      var self = this;
      this.byId = {}; // instance id -> seat
      setups.forEach(function (s, i) { if (s && s.id) self.byId[s.id] = i; });
      this.phases = num((setups[0] || {}).phases);
      // for each frame, the latest view of every island of the current phase
      this.views = []; this.phase = [];
      var cur = {}, ph = -1;
      for (var k = 0; k < frames.length; k++) {
        var isl = frames[k].islands || {}, p = ph;
        for (var i in isl) { p = num(isl[i].game && isl[i].game.phase_index); break; }
        if (p !== ph) { cur = {}; ph = p; }
        var next = {};
        for (var j in cur) next[j] = cur[j];
        for (var i2 in isl) next[i2] = k;
        cur = next;
        this.views.push(cur); this.phase.push(ph);
      }
      // each script's total as of frame k: the latest score seen of each of its instances
      var latest = {}, sums = [];
      (rec.config && rec.config.players || []).forEach(function () { sums.push(0); });
      this.totals = [];
      for (var k2 = 0; k2 < frames.length; k2++) {
        var isl2 = frames[k2].islands || {};
        for (var i3 in isl2) {
          ['active_players', 'betrayers', 'eliminated_players'].forEach(function (g) {
            var m = isl2[i3][g] || {};
            for (var id in m) {
              var seat = self.byId[id];
              if (seat == null) continue;
              var sc = num(m[id].score), p = playerOf(seat);
              sums[p] += sc - (latest[id] || 0); latest[id] = sc;
            }
          });
        }
        this.totals.push(sums.slice());
      }
    },
    draw: function (k, board) {
      var self = this, views = this.views[k], f = frames[k];
      if (k >= N) { board.appendChild(endCard()); return; }
      var votes = {}; // voter seat -> vote id, this step
      answersAt(k).forEach(function (a) { votes[a.seat] = a; });
      board.appendChild(el('div', { cls: 'card' },
        el('span', { cls: 'badge', id: 'phase', text: 'phase ' + (this.phase[k] + 1) + ' of ' + (this.phases || '?') }),
        el('span', { cls: 'badge', text: answersAt(k).length + ' instances vote' }),
        el('div', { id: 'totals', style: 'margin-top:6px' }, this.totals[k].map(function (v, p) {
          var name = rec.config.players[p].name;
          return el('span', { cls: 'badge total', 'data-player': p }, mark(p), name + ': ' + (+v.toFixed(2)));
        })),
        el('div', { cls: 'muted', text: 'script totals as of the start of each instance\'s latest day shown' })));
      var grid = el('div', { cls: 'islands', id: 'islands' });
      Object.keys(views).map(Number).sort(function (a, b) { return a - b; }).forEach(function (i) {
        var o = frames[views[i]].islands[i], live = !!(f.islands && f.islands[i]);
        var tie = o.decision === 'REALTV_DECISION_TIE', ties = o.current_ties || {};
        var rows = [];
        [['active_players', 'active'], ['betrayers', 'betrayer'], ['eliminated_players', 'eliminated']].forEach(function (g) {
          var m = o[g[0]] || {};
          Object.keys(m).sort(function (a, b) { return num(m[b].strength) - num(m[a].strength) || (a < b ? -1 : 1); }).forEach(function (id) { rows.push([m[id], g[1]]); });
        });
        var body = el('tbody');
        rows.forEach(function (r) {
          var p = r[0], st = r[1], seat = self.byId[p.id], prev = p.previous_moves || [], last = prev.length ? prev[prev.length - 1] : null;
          var now = live && seat != null ? votes[seat] : null, voteText = '';
          if (now) voteText = now.fault ? 'FAULT ' + now.fault.kind : (now.action && now.action.realtv && now.action.realtv.vote_id) || 'no vote';
          var lastText = last ? (last.first_vote || '-') + (last.tie_vote ? ' / ' + last.tie_vote : '') : '';
          body.appendChild(el('tr', { cls: 'st-' + (ties[p.id] ? 'tie' : st) + (seat != null ? ' ours' : ''), 'data-id': p.id },
            el('td', { text: p.id }),
            el('td', { text: seat != null ? seatName(seat) : (p.name || '') }),
            el('td', { cls: 'num', text: num(p.strength) }),
            el('td', { cls: 'num', text: +num(p.score).toFixed(2) }),
            el('td', { text: ties[p.id] ? 'tied' : st }),
            el('td', { cls: 'vote', text: voteText }),
            el('td', { cls: 'muted', text: lastText })));
        });
        grid.appendChild(el('div', { cls: 'card island' + (live ? '' : ' stale'), 'data-island': i },
          el('h3', { text: 'island ' + (i + 1) + ', day ' + num(o.day) + (tie ? ', tie vote' : ', elimination vote') + (live ? '' : ' (as last seen: no instance votes here now; the island ended or only filler bots play on)') }),
          el('div', { cls: 'muted', text: Object.keys(o.active_players || {}).length + ' active, ' + Object.keys(o.betrayers || {}).length + ' betrayers, ' + Object.keys(o.eliminated_players || {}).length + ' eliminated' }),
          el('table', null, el('thead', null, el('tr', null, el('th', { text: 'id' }), el('th', { text: 'who' }), el('th', { cls: 'num', text: 'str' }), el('th', { cls: 'num', text: 'score' }), el('th', { text: 'status' }), el('th', { text: 'votes now' }), el('th', { text: 'last votes' }))), body)));
      });
      board.appendChild(grid);
    }
  };

  // gameEnd says whether the step ends a game of a match of games (finger, bidding): the next
  // state counts one more game won, lost by both or drawn, or the match ends (the outcome's
  // scores are the games won).
  function gameEnd(won, next, both, game, bothWord) {
    var after = next ? next.won : (outcome.players || []).map(function (p) { return num(p.score); });
    if (!after || after.length < 2) return '';
    for (var s = 0; s < 2; s++) if (after[s] > won[s]) return 'this move ends game ' + game + ': ' + seatName(s) + ' wins it';
    if (next && next.both > both) return 'this move ends game ' + game + ': ' + (bothWord === 'drawn' ? 'a draw' : 'both lose');
    if (!next) return 'this move ends the match';
    return next.game !== game ? 'this move ends game ' + game : '';
  }

  // ---- common parts
  function endCard() {
    var card = el('div', { cls: 'card', id: 'end' }, el('h3', { text: 'the end: ' + (outcome.summary || '') }));
    var ps = outcome.players || [];
    var t = el('tbody');
    ps.forEach(function (p, i) {
      var name = rec.config && rec.config.players && rec.config.players[i] ? rec.config.players[i].name : (rec.bots || [])[i];
      t.appendChild(el('tr', { 'data-player': i }, el('td', null, mark(i), name || 'player ' + i),
        el('td', { text: p.result }), el('td', { cls: 'num', text: +num(p.score).toFixed(2) }), el('td', { cls: 'num', text: p.rank })));
    });
    card.appendChild(el('table', { id: 'results' }, el('thead', null, el('tr', null, el('th', { text: 'player' }), el('th', { text: 'result' }), el('th', { cls: 'num', text: 'score' }), el('th', { cls: 'num', text: 'rank' }))), t));
    if (outcome.table && outcome.table.length) {
      var tb = el('tbody');
      outcome.table.slice(1).forEach(function (r) { tb.appendChild(el('tr', null, r.map(function (c) { return el('td', { text: c }); }))); });
      card.appendChild(el('table', { id: 'table', style: 'margin-top:8px' }, el('thead', null, el('tr', null, outcome.table[0].map(function (c) { return el('th', { text: c }); }))), tb));
    }
    return card;
  }

  var allFaults = [];
  function collectFaults() {
    frames.forEach(function (f, k) { (f.charged || []).forEach(function (x) { allFaults.push({ k: k, f: x }); }); });
    if (!allFaults.length && outcome.faults) outcome.faults.forEach(function (x) { allFaults.push({ k: -1, f: x }); });
    var ol = $('allfaults');
    if (!allFaults.length) { ol.appendChild(el('li', { cls: 'muted', text: 'none' })); return; }
    allFaults.forEach(function (x) {
      var li = el('li', { 'data-step': x.k, text: (x.k >= 0 ? 'step ' + (x.k + 1) + ': ' : '') + seatName(x.f.seat) + ' at ' + x.f.where + ': ' + x.f.kind + ' (' + (x.f.detail || '') + '); ' + x.f.penalty });
      if (x.k >= 0) li.addEventListener('click', function () { go(x.k); });
      ol.appendChild(li);
    });
  }

  function drawAnswers(k) {
    var tb = $('answers').tBodies[0];
    tb.textContent = '';
    $('answers-title').textContent = k < N ? 'answers at step ' + (k + 1) : 'answers (the match is over)';
    answersAt(k).slice().sort(function (a, b) { return a.seat - b.seat; }).forEach(function (a) {
      var mem = a.memory_bytes ? (num(a.memory_bytes) / 1048576).toFixed(1) + ' MiB' : '';
      tb.appendChild(el('tr', { cls: a.fault ? 'fault' : '', 'data-seat': a.seat, title: 'arrived ' + (num(a.order) + 1) + (a.fault && a.fault.detail ? ': ' + a.fault.detail : '') },
        el('td', null, mark(playerOf(a.seat)), seatName(a.seat)),
        el('td', { cls: 'answer', text: actionText(a) }),
        el('td', { cls: 'num time', text: ms(a.elapsed_us) }),
        el('td', { cls: 'num cpu', text: a.cpu_us != null ? ms(a.cpu_us) : 'not measured' }),
        el('td', { cls: 'num mem', text: mem })));
    });
    var ch = $('charged');
    ch.textContent = '';
    var f = frames[k] || {};
    (f.charged || []).forEach(function (x) {
      ch.appendChild(el('div', { cls: 'fault-box', 'data-seat': x.seat },
        el('b', { text: 'fault: ' + seatName(x.seat) + ', ' + x.kind }), ' at ' + x.where + ': ', el('span', { cls: 'detail', text: x.detail || '' }), el('div', { text: 'penalty: ' + x.penalty })));
    });
    Array.prototype.forEach.call($('allfaults').children, function (li) {
      if (li.hasAttribute('data-step')) li.classList.toggle('here', Number(li.getAttribute('data-step')) === k);
    });
  }

  function render() {
    var board = $('board');
    board.textContent = '';
    var g = games[rec.game];
    if (g) g.draw(cur, board);
    else board.appendChild(el('p', { text: 'this viewer has no picture for the game ' + rec.game + '; the answers are on the right' }));
    if (cur >= N && rec.game !== 'finger' && rec.game !== 'bidding' && rec.game !== 'realtv') board.appendChild(endCard());
    drawAnswers(cur);
    $('seek').value = cur;
    $('pos').textContent = cur < N ? 'step ' + (cur + 1) + ' of ' + N : 'the end (' + N + ' steps)';
    $('forkcmd').textContent = cur < N ? forkCommand(cur) : '';
    $('play').textContent = playing ? '\u275A\u275A' : '\u25B6';
    $('play').setAttribute('aria-pressed', playing ? 'true' : 'false');
    document.body.setAttribute('data-step', cur);
  }

  function go(k) {
    k = Math.max(0, Math.min(N, Math.floor(k)));
    if (k === cur && document.body.hasAttribute('data-step')) return;
    cur = k;
    if (cur >= N) playing = false;
    render();
  }
  function tick(t) {
    if (!playing) return;
    if (lastT) carry += (t - lastT) * speed / 1000;
    lastT = t;
    if (carry >= 1) { var n = Math.floor(carry); carry -= n; go(cur + n); }
    if (playing) requestAnimationFrame(tick);
  }
  function setPlaying(p) {
    if (p && cur >= N) cur = 0;
    playing = p; carry = 1; lastT = 0;
    render();
    if (p) requestAnimationFrame(tick);
  }
  function setSpeed(i) {
    i = Math.max(0, Math.min(SPEEDS.length - 1, i));
    speed = SPEEDS[i]; $('speed').value = String(speed);
  }

  // ---- start
  $('title').textContent = rec.game + ' ' + (rec.match_id || '') + ': ' + (rec.bots || []).join(' vs ');
  $('summary').textContent = outcome.summary || '';
  var params = rec.config && rec.config.params ? Object.keys(rec.config.params).sort().map(function (k) { return k + '=' + rec.config.params[k]; }).join(' ') : '';
  $('meta').textContent = 'seed ' + (rec.config ? rec.config.seed : '?') + (params ? ', ' + params : '') + (rec.started ? ', played ' + rec.started : '') + ', ' + N + ' steps';
  SPEEDS.forEach(function (s) { $('speed').appendChild(el('option', { value: s, text: s + '/s' })); });
  setSpeed(SPEEDS.indexOf(10));
  $('seek').max = String(N);
  $('first').addEventListener('click', function () { go(0); });
  $('prev').addEventListener('click', function () { go(cur - 1); });
  $('next').addEventListener('click', function () { go(cur + 1); });
  $('last').addEventListener('click', function () { go(N); });
  $('play').addEventListener('click', function () { setPlaying(!playing); });
  $('seek').addEventListener('input', function () { go(Number(this.value)); });
  $('speed').addEventListener('change', function () { speed = Number(this.value); });
  document.addEventListener('keydown', function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    var handled = true;
    switch (e.key) {
      case ' ': case 'k': setPlaying(!playing); break;
      case 'ArrowRight': case 'l': go(cur + (e.shiftKey ? 10 : 1)); break;
      case 'ArrowLeft': case 'j': go(cur - (e.shiftKey ? 10 : 1)); break;
      case 'Home': go(0); break;
      case 'End': go(N); break;
      case 'ArrowUp': setSpeed(SPEEDS.indexOf(speed) + 1); break;
      case 'ArrowDown': setSpeed(SPEEDS.indexOf(speed) - 1); break;
      default: handled = false;
    }
    if (handled) e.preventDefault();
  });
  for (var name in games) if (games[name].init && name === rec.game) games[name].init();
  collectFaults();
  // #step=N (from 1) opens the page at step N, so a link can point at a move (a fault, say).
  function fromHash() {
    var m = /(?:^#|&)step=(\d+)/.exec(location.hash);
    return m ? Number(m[1]) - 1 : null;
  }
  window.addEventListener('hashchange', function () { var k = fromHash(); if (k != null) go(k); });
  cur = -1;
  go(fromHash() || 0);
  document.body.setAttribute('data-ready', 'true');
})();
