/**
 * The pairing page's script (served from /pair/pair.js, no CDN, no build step). It keeps the Admin key in memory
 * only, lists the key's brands from GET /api/agent/me, and approves or denies through /api/auth/device/*.
 */
export const PAIR_JS = `(function () {
  'use strict';
  function $(id) { return document.getElementById(id); }
  var adminKey = '';
  var code = new URLSearchParams(window.location.search).get('code');
  if (code) $('user-code').value = code;

  function say(text, kind) {
    var status = $('status');
    status.textContent = text;
    status.className = kind || '';
  }

  function call(method, path, body) {
    var headers = { authorization: 'Bearer ' + adminKey };
    if (body) headers['content-type'] = 'application/json';
    return fetch(path, { method: method, headers: headers, body: body ? JSON.stringify(body) : undefined }).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (json) { return { status: response.status, body: json }; });
    });
  }

  function unreachable() { say('The service could not be reached.', 'error'); }

  function showBrands(brands) {
    var box = $('brands');
    while (box.children.length > 1) box.removeChild(box.lastChild);
    brands.forEach(function (brand) {
      var label = document.createElement('label');
      var box_ = document.createElement('input');
      box_.type = 'checkbox';
      box_.name = 'brand';
      box_.value = brand.id;
      box_.checked = true;
      label.appendChild(box_);
      var channels = (brand.channels || []).map(function (c) { return c.key; }).join(', ');
      label.appendChild(document.createTextNode(brand.name + ' (' + brand.id + ')' + (channels ? ': ' + channels : '')));
      box.appendChild(label);
    });
  }

  $('unlock').addEventListener('submit', function (event) {
    event.preventDefault();
    adminKey = $('admin-key').value.trim();
    say('Checking the key…');
    call('GET', '/api/agent/me').then(function (reply) {
      if (reply.status !== 200) return say('The key was refused: ' + (reply.body.message || 'HTTP ' + reply.status), 'error');
      if (reply.body.scope !== 'Admin') return say('This key has scope ' + reply.body.scope + '; approving needs an Admin key.', 'error');
      $('approver').textContent = 'Approving as "' + reply.body.name + '". Choose what the new key may do:';
      showBrands(reply.body.brands || []);
      $('grant').hidden = false;
      say('');
    }, unreachable);
  });

  function setBusy(busy) {
    $('approve').disabled = busy;
    $('deny').disabled = busy;
  }

  function decide(action) {
    var body = { user_code: $('user-code').value.trim() };
    if (action === 'approve') {
      body.scope = $('scope').value;
      body.name = $('key-name').value.trim() || 'brandwire-cli';
      body.brands = Array.prototype.slice.call(document.querySelectorAll('input[name=brand]:checked')).map(function (b) { return b.value; });
      if (body.brands.length === 0) return say('Pick at least one brand.', 'error');
    }
    setBusy(true);
    call('POST', '/api/auth/device/' + action, body).then(function (reply) {
      if (reply.status === 200) {
        $('grant').hidden = true;
        $('unlock').hidden = true;
        say(action === 'approve' ? 'Approved. Return to your terminal: the CLI stores its new key.' : 'Denied. The CLI was told.', 'done');
      } else {
        setBusy(false);
        say(reply.body.message || 'HTTP ' + reply.status, 'error');
      }
    }, function () { setBusy(false); unreachable(); });
  }

  $('grant').addEventListener('submit', function (event) { event.preventDefault(); decide('approve'); });
  $('deny').addEventListener('click', function () { decide('deny'); });
})();
`;
